// primary adapter: GET /api/openapi.json, no key. The API's OpenAPI document, built once per container.
import { openApiDocument } from '@rivals/contracts';
import { config } from '../shared/config.js';
import { httpRoute } from '../shared/http.js';

let document: ReturnType<typeof openApiDocument> | undefined;

export const handler = httpRoute({
  auth: false,
  handler: async () => ({ statusCode: 200, body: (document ??= openApiDocument(config.version)) }),
});
