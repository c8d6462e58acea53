// primary adapter: GET /api/saved-companies. The watchlist, newest first, paged. Free.
import { PageQuery } from '@rivals/contracts';
import { services } from '../shared/container.js';
import { httpRoute, validate } from '../shared/http.js';

export const handler = httpRoute({
  auth: true,
  handler: async ({ principal, query }) => ({ statusCode: 200, body: await services().watchlist.list(principal.accountId, validate(PageQuery, query)) }),
});
