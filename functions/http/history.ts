// primary adapter: GET /api/history. The account's searches (api and bulk), newest first, paged. Free.
import { HistoryQuery } from '@rivals/contracts';
import { services } from '../shared/container.js';
import { httpRoute } from '../shared/http.js';

export const handler = httpRoute({
  auth: true,
  query: HistoryQuery,
  handler: async ({ principal, query }) => ({
    statusCode: 200,
    body: await services().searchQueries.history(principal.accountId, query),
  }),
});
