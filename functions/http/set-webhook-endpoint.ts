// primary adapter: PUT /api/webhook-endpoint. Sets the account's endpoint for `watchlist.changed` events: https, checked
// where it leads (as bulk webhook URLs are), and a signing secret must exist (docs/monitoring.md).
import { SetWebhookEndpointRequest } from '@rivals/contracts';
import { httpRoute } from '../shared/http.js';
import { monitorApi } from '../shared/monitor.js';

export const handler = httpRoute({
  auth: true,
  body: SetWebhookEndpointRequest,
  handler: async ({ principal, body }) => ({ statusCode: 200, body: await monitorApi().setEndpoint(principal.accountId, body.url) }),
});
