// primary adapter: DELETE /api/bulk/jobs/:id. Cancels a queued or running job; its pending domains are refunded. 204.
import { bulkService } from '../../shared/bulk.js';
import { httpRoute } from '../../shared/http.js';

export const handler = httpRoute({
  auth: true,
  handler: async ({ principal, pathParameters }) => {
    await bulkService().cancel(principal.accountId, pathParameters.id ?? '');
    return { statusCode: 204 };
  },
});
