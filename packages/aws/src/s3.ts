// aws adapter (secondary): the upload bucket. Presigned PUTs pin the content type; a presigned PUT cannot cap the size,
// so the size is checked when the object lands (UploadStore.size).
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { UploadStore } from '@rivals/core';

/** s3rver and S3 both accept these; s3rver does not speak the newer default checksums. */
export const s3Client = (config: S3ClientConfig = {}) =>
  new S3Client({ requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED', forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3), ...config });

export class S3UploadStore implements UploadStore {
  constructor(private readonly client: S3Client, private readonly bucket: string) {}

  presignPut(key: string, contentType: string, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }), {
      expiresIn: expiresInSeconds,
      signableHeaders: new Set(['content-type']),
    });
  }

  async size(key: string): Promise<number | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if ((error as Error).name === 'NotFound' || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async read(key: string): Promise<AsyncIterable<Uint8Array>> {
    const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return Body as AsyncIterable<Uint8Array>;
  }
}
