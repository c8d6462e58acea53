// primary adapter: POST /api/v1/lookalikes. One paid look-alike search of 1..20 seeds; Idempotency-Key makes a retry free.
import { LookalikesRequest } from '@rivals/contracts';
import { httpRoute } from '../shared/http.js';
import { once } from '../shared/idempotency.js';
import { researchAnswer } from '../shared/search-metrics.js';
import { searchService } from '../shared/research.js';

export const handler = httpRoute({
  auth: true,
  body: LookalikesRequest,
  handler: async (request) => once('lookalikes', request, request.body, () => researchAnswer(() => searchService().lookalikes(request.principal.accountId, request.body))),
});
