// aws adapter (secondary): the upload bucket. Presigned PUTs pin the content type and the exact size (Content-Length is
// signed, so S3 refuses any other body); the worker reads the object only as the version it checked (If-Match on its
// ETag) and stops past the size cap, so a file swapped or grown after the check is never read.
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ApiError, type UploadStore } from '@rivals/core';

/** s3rver and S3 both accept these; s3rver does not speak the newer default checksums. */
export const s3Client = (config: S3ClientConfig = {}) =>
  new S3Client({ requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED', forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3), ...config });

export class S3UploadStore implements UploadStore {
  constructor(private readonly client: S3Client, private readonly bucket: string) {}

  presignPut(key: string, contentType: string, sizeBytes: number, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType, ContentLength: sizeBytes }), {
      expiresIn: expiresInSeconds,
      signableHeaders: new Set(['content-type', 'content-length']),
    });
  }

  async stat(key: string): Promise<{ size: number; etag: string } | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0, etag: head.ETag ?? '' };
    } catch (error) {
      if ((error as Error).name === 'NotFound' || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async read(key: string, pin: { etag: string; maxBytes: number }): Promise<AsyncIterable<Uint8Array>> {
    let answer;
    try {
      answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, IfMatch: pin.etag }));
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 412) throw uploadChanged();
      throw error;
    }
    const body = answer.Body as (AsyncIterable<Uint8Array> & { destroy?: () => void }) | undefined;
    // Also checked here: not every S3 look-alike honours If-Match (s3rver does not).
    if (!body || answer.ETag !== pin.etag) {
      body?.destroy?.();
      throw uploadChanged();
    }
    return capped(body, pin.maxBytes);
  }
}

const uploadChanged = () => new ApiError('conflict', 'The uploaded file was replaced after it was checked.', { details: [{ field: 'file', problem: 'changed' }] });

/** The stream, failing once it has passed `maxBytes` (whatever the object's size said). */
async function* capped(body: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  let read = 0;
  for await (const chunk of body) {
    read += chunk.byteLength;
    if (read > maxBytes) throw new ApiError('payload_too_large', `The file is larger than ${maxBytes} bytes.`, { details: [{ field: 'file', problem: 'too large' }] });
    yield chunk;
  }
}
