// local runtime: S3's authentication in front of s3rver. s3rver lets an unsigned request through and never checks a
// Signature V4, so on its own anyone who can reach it may list, read and overwrite every upload. This front, on
// loopback, checks every request's Signature V4 (an Authorization header, or a presigned URL's query) against the run's
// credentials, recomputing it with the AWS SDK's own signer (@smithy/signature-v4), and passes only those that match
// (and are not expired) on to s3rver; the rest are answered 403 as S3 answers them. CORS preflights (OPTIONS, which
// browsers send without credentials, as S3 allows) pass unchecked; they read and change nothing.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';

export interface LocalCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytesOf = (data: SourceData) =>
  typeof data === 'string' ? Buffer.from(data, 'utf8') : ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data);

/** SHA-256 and HMAC-SHA-256 in the shape the signer takes (node:crypto underneath). */
class Sha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytesOf(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {}
}

/** How far a request's own date may be from now, as S3 allows. */
const MAX_CLOCK_SKEW_MS = 15 * 60_000;
const QUERY_AUTH = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Signature', 'X-Amz-Content-Sha256'];
const HEADER_AUTH = /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/s3\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;
const CREDENTIAL = /^([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request$/;

/** 20260101T000000Z as a Date; null when malformed. */
function amzDate(value: string | undefined): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : null;
}

const sameSignature = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

type Query = Record<string, string | string[]>;
function queryOf(search: URLSearchParams, leaveOut: string[] = []): Query {
  const query: Query = {};
  for (const [name, value] of search) {
    if (leaveOut.includes(name)) continue;
    const held = query[name];
    query[name] = held === undefined ? value : Array.isArray(held) ? [...held, value] : [held, value];
  }
  return query;
}

const headerValue = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
};

/**
 * Whether the request carries a valid Signature V4 of these credentials, for S3 in `region`. The string it was signed
 * over is rebuilt from the request (method, path, query, the headers it names as signed) and signed again; the two
 * signatures must be equal.
 */
export async function verifyS3Signature(req: IncomingMessage, credentials: LocalCredentials, region: string, now = new Date()): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://s3.local');
  const path = (req.url ?? '/').split('?')[0]!;
  const signer = new SignatureV4({ credentials, region, service: 's3', sha256: Sha256, uriEscapePath: false, applyChecksum: false });
  const base = { method: req.method ?? 'GET', protocol: 'http:', hostname: (req.headers.host ?? '').split(':')[0]!, path };
  const signedHeadersOf = (list: string) => {
    const names = list.split(';');
    return { names, headers: Object.fromEntries(names.map((name) => [name, headerValue(req, name)])) };
  };

  const authorization = headerValue(req, 'authorization');
  if (authorization) {
    const m = HEADER_AUTH.exec(authorization);
    if (!m || url.searchParams.has('X-Amz-Signature')) return false;
    const [, accessKeyId, day, scopeRegion, signedList, signature] = m as unknown as string[];
    const date = amzDate(headerValue(req, 'x-amz-date'));
    if (accessKeyId !== credentials.accessKeyId || scopeRegion !== region || !date || !date.toISOString().replace(/-/g, '').startsWith(day!)) return false;
    if (Math.abs(now.getTime() - date.getTime()) > MAX_CLOCK_SKEW_MS) return false;
    const { names, headers } = signedHeadersOf(signedList!);
    if (!names.includes('host') || !names.includes('x-amz-content-sha256')) return false;
    const signed = await signer.sign({ ...base, query: queryOf(url.searchParams), headers }, { signingDate: date, signableHeaders: new Set(names) });
    const again = HEADER_AUTH.exec(String(signed.headers.authorization ?? signed.headers.Authorization ?? ''))?.[5] ?? '';
    return sameSignature(again, signature!);
  }

  const signature = url.searchParams.get('X-Amz-Signature');
  if (signature === null) return false;
  const credential = CREDENTIAL.exec(url.searchParams.get('X-Amz-Credential') ?? '');
  const date = amzDate(url.searchParams.get('X-Amz-Date') ?? undefined);
  const expires = Number(url.searchParams.get('X-Amz-Expires'));
  if (url.searchParams.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256' || !credential || !date) return false;
  if (credential[1] !== credentials.accessKeyId || credential[3] !== region || !date.toISOString().replace(/-/g, '').startsWith(credential[2]!)) return false;
  if (!Number.isInteger(expires) || expires < 1 || expires > 604_800) return false;
  if (now.getTime() > date.getTime() + expires * 1000 || date.getTime() - now.getTime() > MAX_CLOCK_SKEW_MS) return false;
  const { names, headers } = signedHeadersOf(url.searchParams.get('X-Amz-SignedHeaders') ?? '');
  if (!names.includes('host')) return false;
  // The SDK's presigner signs with this header and hoists it into the query under this very name (the name's case is
  // part of the canonical query), so it goes back as the header it was.
  const payload = url.searchParams.get('X-Amz-Content-Sha256');
  const presigned = await signer.presign(
    { ...base, query: queryOf(url.searchParams, QUERY_AUTH), headers: { ...headers, ...(payload ? { 'X-Amz-Content-Sha256': payload } : {}) } },
    { signingDate: date, expiresIn: expires, signableHeaders: new Set(names) },
  );
  return sameSignature(String(presigned.query?.['X-Amz-Signature'] ?? ''), signature);
}

const denied = (res: ServerResponse, code: string, message: string) =>
  void res
    .writeHead(403, { 'content-type': 'application/xml' })
    .end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`);

/** The authenticating front: checks each request, then streams it to s3rver at `target` and its answer back. */
export function createS3AuthFront(options: { target: { host: string; port: number }; credentials: LocalCredentials; region: string }): Server {
  return createServer((req, res) => {
    const pass = () => {
      const upstream = httpRequest({ host: options.target.host, port: options.target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => (res.headersSent ? res.destroy() : denied(res, 'ServiceUnavailable', 'The local S3 is not answering.')));
      req.pipe(upstream);
    };
    if (req.method === 'OPTIONS') return pass();
    verifyS3Signature(req, options.credentials, options.region).then(
      (valid) => {
        if (valid) return pass();
        req.resume();
        const signed = Boolean(req.headers.authorization) || (req.url ?? '').includes('X-Amz-Signature=');
        denied(res, signed ? 'SignatureDoesNotMatch' : 'AccessDenied', signed ? 'The request signature does not match, or it has expired.' : 'Anonymous requests are refused: sign the request.');
      },
      () => {
        req.resume();
        denied(res, 'AccessDenied', 'The request could not be authenticated.');
      },
    );
  });
}
