// primary adapter: POST /api/webhook-secret. Creates or rotates the account's webhook signing secret, shown once.
import { webhookService } from '../shared/bulk.js';
import { httpRoute } from '../shared/http.js';

export const handler = httpRoute({
  auth: true,
  freshKey: true,
  handler: async ({ principal }) => ({ statusCode: 201, body: await (await webhookService()).rotateSecret(principal.accountId) }),
});
