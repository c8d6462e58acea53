// primary adapter: POST /api/v1/search. One paid search; Idempotency-Key makes a retry free.
import { SearchRequest } from '@rivals/contracts';
import { httpRoute } from '../shared/http.js';
import { once } from '../shared/idempotency.js';
import { researchAnswer } from '../shared/search-metrics.js';
import { searchService } from '../shared/research.js';

export const handler = httpRoute({
  auth: true,
  body: SearchRequest,
  handler: async (request) => once('search', request, request.body, () => researchAnswer(() => searchService().search(request.principal.accountId, request.body))),
});
