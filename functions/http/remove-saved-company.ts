// primary adapter: DELETE /api/saved-companies/:domain. 204 whether or not the domain was saved. Free.
import { services } from '../shared/container.js';
import { httpRoute } from '../shared/http.js';

export const handler = httpRoute({
  auth: true,
  handler: async ({ principal, pathParameters }) => {
    await services().watchlist.remove(principal.accountId, pathParameters.domain ?? '');
    return { statusCode: 204 };
  },
});
