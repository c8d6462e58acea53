// The local runtime's engines are closed to everyone but the runtime itself. Every one of them (DynamoDB Local, the S3
// front, local-aws-sqs) and the API front listen on loopback only (read off the kernel's table of listening sockets:
// no packet is sent anywhere). The engines' credentials are random per run, written beside the development key, both
// readable by their owner only. The local S3 refuses unsigned requests and requests signed with any other secret
// (GET, PUT, LIST, a presigned URL tampered with or expired), and serves correctly signed ones.
import { readFileSync, statSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSecrets as bulkWebhookSecrets } from '../../functions/shared/bulk.js';
import { credentialsFile, keyFile, readCredentials } from '../../packages/local/src/instance.js';
import { freePort, LOCAL_REGION } from '../../packages/local/src/engines.js';
import { startLocal, type LocalService } from '../../packages/local/src/runtime.js';

let service: LocalService;
const stateDir = mkdtempSync(join(tmpdir(), 'rivals-engines-'));
let port: number;
beforeAll(async () => {
  port = await freePort();
  service = await startLocal({ port, devCredits: 1, stateDir, scheduleEverySeconds: 3600 });
}, 120_000);
afterAll(async () => {
  await service?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

/** Local addresses of the sockets listening on `port` (IPv4 and IPv6 tables of /proc/net). */
function listeners(portNumber: number): string[] {
  const hexPort = portNumber.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((cols) => cols[3] === '0A' && cols[1]?.endsWith(`:${hexPort}`))
      .map((cols) => cols[1]!.split(':')[0]!),
  );
}
/** 127.0.0.0/8 in /proc's little-endian hex, as IPv4 or as IPv4-mapped IPv6; or ::1. */
const isLoopback = (hex: string) =>
  (hex.length === 8 && hex.endsWith('7F')) || (hex.length === 32 && hex.startsWith('0000000000000000FFFF0000') && hex.endsWith('7F')) || hex === '00000000000000000000000001000000';

const s3With = (credentials: { accessKeyId: string; secretAccessKey: string }) =>
  new S3Client({ region: LOCAL_REGION, endpoint: service.endpoints.s3, forcePathStyle: true, credentials, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED', maxAttempts: 1 });

describe('webhook signing secrets at rest', () => {
  it('are sealed in the table: a rotated secret appears in no raw item, and signs deliveries still', async () => {
    const res = await fetch(`${service.url}/api/webhook-secret`, { method: 'POST', headers: { 'x-api-key': service.apiKey } });
    expect(res.status).toBe(201);
    const { secret } = (await res.json()) as { secret: string };
    const { Items = [] } = await service.table.client.send(new ScanCommand({ TableName: service.table.tableName }));
    expect(Items.filter((item) => JSON.stringify(item).includes(secret))).toEqual([]);
    expect(Items.filter((item) => typeof item.sealed === 'string')).toHaveLength(1);
    expect(await bulkWebhookSecrets().get(service.accountId)).toBe(secret);
  });
});

describe('the local engines', () => {
  it('listen on loopback only, the API front included', () => {
    const ports = { ...Object.fromEntries(Object.entries(service.endpoints).map(([name, url]) => [name, Number(new URL(url).port)])), front: port };
    for (const [name, p] of Object.entries(ports)) {
      const addresses = listeners(p);
      expect([name, addresses.length > 0]).toEqual([name, true]);
      expect([name, addresses.filter((a) => !isLoopback(a))]).toEqual([name, []]);
    }
  });

  it('use random credentials of this run, written beside the key for its owner only', () => {
    const credentials = readCredentials(stateDir, port);
    expect(credentials.accessKeyId).toMatch(/^LOCAL[0-9A-F]{20}$/);
    expect(credentials.secretAccessKey.length).toBeGreaterThanOrEqual(40);
    expect(credentials.accessKeyId).toBe(process.env.AWS_ACCESS_KEY_ID);
    expect(statSync(credentialsFile(stateDir, port)).mode & 0o777).toBe(0o600);
    expect(statSync(keyFile(stateDir, port)).mode & 0o777).toBe(0o600);
  });

  it('S3 refuses unsigned and wrongly signed GET, PUT and LIST, and serves signed ones', async () => {
    const bucket = service.resources.bucketName;
    const good = s3With(readCredentials(stateDir, port));
    await good.send(new PutObjectCommand({ Bucket: bucket, Key: 'uploads/probe.csv', Body: 'stripe.com\n', ContentType: 'text/csv' }));
    const base = `${service.endpoints.s3}/${bucket}`;
    // Unsigned.
    expect((await fetch(`${base}/uploads/probe.csv`)).status).toBe(403);
    expect((await fetch(`${base}/uploads/evil.csv`, { method: 'PUT', body: 'x' })).status).toBe(403);
    expect((await fetch(`${base}?list-type=2`)).status).toBe(403);
    expect((await fetch(`${base}`)).status).toBe(403);
    // Signed with the right key id and a wrong secret, and with the fixed credentials of old.
    for (const wrong of [{ accessKeyId: readCredentials(stateDir, port).accessKeyId, secretAccessKey: 'not-the-secret' }, { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }]) {
      const bad = s3With(wrong);
      await expect(bad.send(new GetObjectCommand({ Bucket: bucket, Key: 'uploads/probe.csv' }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
      await expect(bad.send(new PutObjectCommand({ Bucket: bucket, Key: 'uploads/evil.csv', Body: 'x' }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
      await expect(bad.send(new ListObjectsV2Command({ Bucket: bucket }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
      const badUrl = await getSignedUrl(bad, new GetObjectCommand({ Bucket: bucket, Key: 'uploads/probe.csv' }), { expiresIn: 60 });
      expect((await fetch(badUrl)).status).toBe(403);
      bad.destroy();
    }
    // Correctly signed: read, listed, presigned.
    const listed = await good.send(new ListObjectsV2Command({ Bucket: bucket }));
    expect(listed.Contents?.map((o) => o.Key)).toContain('uploads/probe.csv');
    expect(listed.Contents?.map((o) => o.Key)).not.toContain('uploads/evil.csv');
    const read = await good.send(new GetObjectCommand({ Bucket: bucket, Key: 'uploads/probe.csv' }));
    expect(await read.Body!.transformToString()).toBe('stripe.com\n');
    const url = await getSignedUrl(good, new GetObjectCommand({ Bucket: bucket, Key: 'uploads/probe.csv' }), { expiresIn: 60 });
    expect((await fetch(url)).status).toBe(200);
    // A presigned URL moved to another object, or past its expiry, is refused.
    expect((await fetch(url.replace('probe.csv', 'other.csv'))).status).toBe(403);
    const expired = new URL(url);
    expired.searchParams.set('X-Amz-Date', '20200101T000000Z');
    expect((await fetch(expired)).status).toBe(403);
    const putUrl = await getSignedUrl(good, new PutObjectCommand({ Bucket: bucket, Key: 'uploads/put.csv', ContentType: 'text/csv' }), { expiresIn: 60, signableHeaders: new Set(['content-type']) });
    expect((await fetch(putUrl, { method: 'PUT', body: 'adyen.com\n', headers: { 'content-type': 'text/csv' } })).status).toBe(200);
    expect((await fetch(putUrl, { method: 'PUT', body: 'adyen.com\n', headers: { 'content-type': 'text/html' } })).status).toBe(403);
    good.destroy();
  });
});
