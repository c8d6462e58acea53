// primary adapter: POST /api/searches/:id/share. 201 with a new link, 200 with the live one it already has. Free.
import { services } from '../shared/container.js';
import { httpRoute } from '../shared/http.js';

export const handler = httpRoute({
  auth: true,
  handler: async ({ principal, pathParameters }) => {
    const { link, created } = await services().shareService.share(principal.accountId, pathParameters.id ?? '');
    return { statusCode: created ? 201 : 200, body: link };
  },
});
