// primary adapter: DELETE /api/webhook-endpoint. 204 whether or not one was set; events not yet delivered are dropped.
import { httpRoute } from '../shared/http.js';
import { monitorApi } from '../shared/monitor.js';

export const handler = httpRoute({
  auth: true,
  handler: async ({ principal }) => {
    await monitorApi().removeEndpoint(principal.accountId);
    return { statusCode: 204 };
  },
});
