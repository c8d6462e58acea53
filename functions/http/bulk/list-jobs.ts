// primary adapter: GET /api/bulk/jobs. The caller's jobs, newest first, paged. Free.
import { PageQuery } from '@rivals/contracts';
import { bulkService } from '../../shared/bulk.js';
import { httpRoute, validate } from '../../shared/http.js';

export const handler = httpRoute({
  auth: true,
  handler: async ({ principal, query }) => ({ statusCode: 200, body: await bulkService().list(principal.accountId, validate(PageQuery, query, 'query')) }),
});
