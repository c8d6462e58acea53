// primary adapter: POST /api/searches/:id/share. 201 with a new link, 200 with the live one it already has. Free.
import { services } from '../shared/container.js';
import { httpRoute } from '../shared/http.js';
import { publicOrigin } from '../shared/public-origin.js';

export const handler = httpRoute({
  auth: true,
  handler: async ({ principal, pathParameters, event }) => {
    const { link, created } = await services().shareService.share(principal.accountId, pathParameters.id ?? '', publicOrigin(event));
    return { statusCode: created ? 201 : 200, body: link };
  },
});
