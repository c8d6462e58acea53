// primary adapter: GET /api/changes. What the monitor found in the watched companies' competitors, newest first,
// paged; ?domain= narrows to one watched company and marks its changes seen; ?since= keeps those detected at or after.
import { ChangesQuery } from '@rivals/contracts';
import { httpRoute } from '../shared/http.js';
import { monitorApi } from '../shared/monitor.js';

export const handler = httpRoute({
  auth: true,
  query: ChangesQuery,
  handler: async ({ principal, query }) => ({ statusCode: 200, body: await monitorApi().changes(principal.accountId, query) }),
});
