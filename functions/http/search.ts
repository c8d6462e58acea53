// primary adapter: POST /api/v1/search. One paid search; Idempotency-Key makes a retry free.
import { SearchRequest } from '@rivals/contracts';
import { httpRoute } from '../shared/http.js';
import { once } from '../shared/idempotency.js';
import { recordFailedSearch, recordSearch } from '../shared/search-metrics.js';
import { searchService } from '../shared/research.js';

export const handler = httpRoute({
  auth: true,
  body: SearchRequest,
  handler: async (request) =>
    once('search', request, request.body, async () => {
      try {
        const { searchId, result } = await searchService().search(request.principal.accountId, request.body);
        recordSearch(result.elapsedSeconds);
        // The body is exactly the Search result; the id of the stored search (GET /api/searches/:id) rides in a header.
        return { statusCode: 200, body: result, headers: { 'x-search-id': searchId } };
      } catch (error) {
        recordFailedSearch(error);
        throw error;
      }
    }),
});
