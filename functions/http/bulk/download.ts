// primary adapter: GET /api/bulk/jobs/:id/download. The results as CSV, produced page by page from the job's domains
// and their searches. A REST API Lambda answers with one body (6 MB at most), so a larger file is refused with 413 and
// the job is read page by page (GET /api/bulk/jobs/:id, GET /api/searches/:id) instead.
import { ApiError } from '@rivals/core';
import { bulkService, searchStore } from '../../shared/bulk.js';
import { httpRoute } from '../../shared/http.js';

export const MAX_DOWNLOAD_BYTES = 5 * 1024 * 1024;

export const handler = httpRoute({
  auth: true,
  handler: async ({ principal, pathParameters }) => {
    const chunks: string[] = [];
    let size = 0;
    for await (const line of bulkService().download(principal.accountId, pathParameters.id ?? '', searchStore())) {
      size += Buffer.byteLength(line);
      if (size > MAX_DOWNLOAD_BYTES) throw new ApiError('payload_too_large', 'The results are larger than one download can carry; read them with GET /api/bulk/jobs/{id}.');
      chunks.push(line);
    }
    return {
      statusCode: 200,
      text: chunks.join(''),
      headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${pathParameters.id}.csv"` },
    };
  },
});
