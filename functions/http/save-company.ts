// primary adapter: POST /api/saved-companies. 201 with the new row; 200 with the row saved before, unchanged. Free.
import { SaveCompanyRequest } from '@rivals/contracts';
import { services } from '../shared/container.js';
import { httpRoute } from '../shared/http.js';

export const handler = httpRoute({
  auth: true,
  body: SaveCompanyRequest,
  handler: async ({ principal, body }) => {
    const { row, created } = await services().watchlist.save(principal.accountId, body);
    return { statusCode: created ? 201 : 200, body: row };
  },
});
