// primary adapter: GET /api/searches/:id. A past search with the evidence of every row. Free.
import { services } from '../shared/container.js';
import { httpRoute } from '../shared/http.js';

export const handler = httpRoute({
  auth: true,
  handler: async ({ principal, pathParameters }) => ({
    statusCode: 200,
    body: await services().searchQueries.find(principal.accountId, pathParameters.id ?? ''),
  }),
});
