// primary adapter: DELETE /api/searches/:id/share. Revokes the link at once; 204 whether or not there was one. Free.
import { services } from '../shared/container.js';
import { httpRoute } from '../shared/http.js';

export const handler = httpRoute({
  auth: true,
  handler: async ({ principal, pathParameters }) => {
    await services().shareService.revoke(principal.accountId, pathParameters.id ?? '');
    return { statusCode: 204 };
  },
});
