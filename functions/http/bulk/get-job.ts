// primary adapter: GET /api/bulk/jobs/:id. Status, counters, rejected rows and a page of per-domain results. Free.
import { PageQuery } from '@rivals/contracts';
import { bulkService } from '../../shared/bulk.js';
import { httpRoute, validate } from '../../shared/http.js';

export const handler = httpRoute({
  auth: true,
  handler: async ({ principal, pathParameters, query }) => ({
    statusCode: 200,
    body: await bulkService().get(principal.accountId, pathParameters.id ?? '', validate(PageQuery, query, 'query')),
  }),
});
