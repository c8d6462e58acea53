// primary adapter: POST /api/bulk/upload-url. A presigned S3 PUT for a larger CSV; the job starts when the file lands.
// The JSON body is optional, so it is parsed here rather than by the chain's JSON parser.
import { BulkUploadUrlRequest } from '@rivals/contracts';
import { ApiError, invalidRequest } from '@rivals/core';
import { bulkService } from '../../shared/bulk.js';
import { httpRoute, validate } from '../../shared/http.js';

function jsonOrEmpty(raw: Buffer | null, contentType: string): unknown {
  const text = raw?.toString('utf8').trim() ?? '';
  if (text === '') return {};
  if (!/^application\/json\b/i.test(contentType)) throw new ApiError('unsupported_media_type', 'Send the request body as JSON with Content-Type: application/json.');
  try {
    return JSON.parse(text);
  } catch {
    throw invalidRequest('The request body is not valid JSON.', [{ field: 'body', problem: 'malformed JSON' }]);
  }
}

export const handler = httpRoute({
  auth: true,
  freshKey: true,
  handler: async ({ principal, rawBody, headers }) => {
    const body = validate(BulkUploadUrlRequest, jsonOrEmpty(rawBody, headers['content-type'] ?? ''));
    return { statusCode: 201, body: await bulkService().createUploadUrl(principal.accountId, body) };
  },
});
