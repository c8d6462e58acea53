// primary adapter: GET /api/saved-companies. The watchlist, newest first, paged. Free.
import { StrictPageQuery } from '@rivals/contracts';
import { services } from '../shared/container.js';
import { httpRoute } from '../shared/http.js';

export const handler = httpRoute({
  auth: true,
  query: StrictPageQuery,
  handler: async ({ principal, query }) => ({ statusCode: 200, body: await services().watchlist.list(principal.accountId, query) }),
});
