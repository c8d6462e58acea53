// The upload bucket adapter: a presigned PUT signs the exact size, and the worker's read is pinned to the ETag it
// checked and capped as a stream (S3's answers mocked with aws-sdk-client-mock).
import { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { S3UploadStore } from '@rivals/aws';

const s3 = mockClient(S3Client);
afterEach(() => s3.reset());
const store = () => new S3UploadStore(new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } }), 'uploads-bucket');
const body = (...chunks: string[]) => Readable.from(chunks.map((c) => Buffer.from(c)));
const drain = async (stream: AsyncIterable<Uint8Array>) => {
  let text = '';
  for await (const chunk of stream) text += Buffer.from(chunk).toString();
  return text;
};

describe('S3UploadStore', () => {
  it('signs the content type and the exact content length into the upload URL', async () => {
    const url = new URL(await store().presignPut('uploads/acct_x/job_y.csv', 'text/csv', 1234, 900));
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';').sort()).toEqual(['content-length', 'content-type', 'host']);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
  });

  it('reads the version it checked, with If-Match, and no more than the cap', async () => {
    s3.on(HeadObjectCommand).resolves({ ContentLength: 11, ETag: '"v1"' });
    s3.on(GetObjectCommand).resolves({ ETag: '"v1"', Body: body('stripe', '.com\n') as never });
    const stat = await store().stat('k');
    expect(stat).toEqual({ size: 11, etag: '"v1"' });
    expect(await drain(await store().read('k', { etag: stat!.etag, maxBytes: 11 }))).toBe('stripe.com\n');
    expect(s3.commandCalls(GetObjectCommand)[0]!.args[0].input).toMatchObject({ Bucket: 'uploads-bucket', Key: 'k', IfMatch: '"v1"' });
  });

  it('refuses a replaced object (412, or another ETag) and stops a stream that passes the cap', async () => {
    s3.on(GetObjectCommand)
      .rejectsOnce(Object.assign(new Error('PreconditionFailed'), { name: 'PreconditionFailed', $metadata: { httpStatusCode: 412 } }))
      .resolvesOnce({ ETag: '"v2"', Body: body('x') as never })
      .resolvesOnce({ ETag: '"v1"', Body: body('a'.repeat(60), 'b'.repeat(60)) as never });
    await expect(store().read('k', { etag: '"v1"', maxBytes: 100 })).rejects.toMatchObject({ code: 'conflict', extra: { details: [{ problem: 'changed' }] } });
    await expect(store().read('k', { etag: '"v1"', maxBytes: 100 })).rejects.toMatchObject({ code: 'conflict' });
    await expect(drain(await store().read('k', { etag: '"v1"', maxBytes: 100 }))).rejects.toMatchObject({ code: 'payload_too_large', extra: { details: [{ problem: 'too large' }] } });
  });
});
