// primary adapter: GET /api/v1/balance. Free.
import { services } from '../shared/container.js';
import { httpRoute } from '../shared/http.js';

export const handler = httpRoute({
  auth: true,
  handler: async ({ principal }) => ({
    statusCode: 200,
    body: { creditsRemaining: await services().accountService.balance(principal.accountId) },
  }),
});
