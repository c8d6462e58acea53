// primary adapter: PATCH /api/saved-companies/:domain. Changes a saved company's note or name: 200 with the row; 404
// when the domain is not saved. Free.
import { UpdateSavedCompanyRequest } from '@rivals/contracts';
import { services } from '../shared/container.js';
import { httpRoute } from '../shared/http.js';

export const handler = httpRoute({
  auth: true,
  body: UpdateSavedCompanyRequest,
  handler: async ({ principal, pathParameters, body }) => ({ statusCode: 200, body: await services().watchlist.update(principal.accountId, pathParameters.domain ?? '', body) }),
});
