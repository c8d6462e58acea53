// primary adapter: POST /api/bulk/upload. The CSV as the body (text/csv) or as the multipart/form-data field `file`;
// the whole job's credits are reserved before it is queued. Idempotency-Key makes a retry free.
import { createHash } from 'node:crypto';
import busboy from 'busboy';
import { BULK_MAX_BODY_BYTES, BulkUploadQuery } from '@rivals/contracts';
import { ApiError, invalidRequest } from '@rivals/core';
import { bulkService } from '../../shared/bulk.js';
import { httpRoute, validate } from '../../shared/http.js';
import { once } from '../../shared/idempotency.js';

const CSV_TYPES = /^(text\/csv|application\/csv|text\/plain|application\/vnd\.ms-excel)\b/i;

/** The `file` field of a multipart body with its file name, or a 400 when there is none. */
function multipartFile(body: Buffer, contentType: string): Promise<{ csv: Buffer; filename: string | undefined }> {
  return new Promise((resolve, reject) => {
    let file: Buffer | null = null;
    let filename: string | undefined;
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { 'content-type': contentType }, limits: { files: 1, fileSize: BULK_MAX_BODY_BYTES + 1 } });
    } catch {
      return reject(invalidRequest('The multipart body is malformed.', [{ field: 'body', problem: 'malformed multipart' }]));
    }
    parser.on('file', (name, stream, info) => {
      if (name !== 'file') return void stream.resume();
      if (info.mimeType && !CSV_TYPES.test(info.mimeType) && info.mimeType !== 'application/octet-stream')
        return reject(new ApiError('unsupported_media_type', 'The file must be a CSV (text/csv).'));
      filename = info.filename?.trim().slice(0, 255) || undefined;
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => (file = Buffer.concat(chunks)));
    });
    parser.on('error', () => reject(invalidRequest('The multipart body is malformed.', [{ field: 'body', problem: 'malformed multipart' }])));
    parser.on('close', () => (file ? resolve({ csv: file, filename }) : reject(invalidRequest('Send the CSV in the multipart field "file".', [{ field: 'file', problem: 'missing' }]))));
    parser.end(body);
  });
}

export const handler = httpRoute({
  auth: true,
  freshKey: true,
  handler: async (request) => {
    const query = validate(BulkUploadQuery, request.query, 'query');
    const contentType = request.headers['content-type'] ?? '';
    const raw = request.rawBody ?? Buffer.alloc(0);
    let csv: Buffer;
    if (/^multipart\/form-data\b/i.test(contentType)) {
      const part = await multipartFile(raw, contentType);
      csv = part.csv;
      query.filename ??= part.filename;
    } else if (CSV_TYPES.test(contentType)) csv = raw;
    else throw new ApiError('unsupported_media_type', 'Send the CSV as the body with Content-Type: text/csv, or as the multipart/form-data field "file".');
    if (csv.length > BULK_MAX_BODY_BYTES) throw new ApiError('payload_too_large', `The CSV may be at most ${BULK_MAX_BODY_BYTES / 1024 / 1024} MB here; use POST /api/bulk/upload-url for larger files.`);
    if (csv.length === 0) throw invalidRequest('The file is empty.', [{ field: 'file', problem: 'empty' }]);

    const fingerprint = createHash('sha256').update(csv).digest('hex');
    return once('bulk-upload', request, { query, fingerprint }, async () => ({
      statusCode: 202,
      body: await bulkService().upload(request.principal.accountId, [csv], query),
    }));
  },
});
