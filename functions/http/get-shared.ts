// primary adapter: GET /api/shared/:token (no key). A shared search, read-only, with nothing about its account.
import { services } from '../shared/container.js';
import { httpRoute } from '../shared/http.js';

export const handler = httpRoute({
  auth: false,
  handler: async ({ pathParameters }) => ({ statusCode: 200, body: await services().shareService.read(pathParameters.token ?? '') }),
});
