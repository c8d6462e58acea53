// primary adapter: GET /api/health, no key. Says the function runs; touches no dependency.
import { config } from '../shared/config.js';
import { httpRoute } from '../shared/http.js';

export const handler = httpRoute({
  auth: false,
  handler: async () => ({ statusCode: 200, body: { status: 'ok', version: config.version } }),
});
