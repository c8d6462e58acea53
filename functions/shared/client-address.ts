// composition root: the client's address, the one place every function takes it from (rate limits, logs). Behind
// CloudFront the TCP peer API Gateway sees is one of CloudFront's servers, shared by every dashboard user; the viewer's
// own address is in CloudFront's CloudFront-Viewer-Address header. That header is trusted only on a request proven to
// come from this stage's distribution: CloudFront adds a secret origin header (infra/constructs/web-front.ts), checked
// here against the secret's current and previous values, so the secret can be rotated without refusing anyone. Where
// no origin secret is configured (the local runtime), the TCP peer is the client.
import { timingSafeEqual } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/** The secret's ARN, set by the CDK on every HTTP function and the authorizer. */
export const ORIGIN_SECRET_ENV = 'ORIGIN_SECRET_ARN';
/** The header CloudFront adds to every request it sends to the API. */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';
/** CloudFront's header with the viewer's address and port (`198.51.100.7:46532`, `2001:db8::7:46532`). */
export const VIEWER_ADDRESS_HEADER = 'cloudfront-viewer-address';

export interface ClientAddress {
  /** The client's address: the viewer's behind the distribution, else the TCP peer's. */
  ip: string | undefined;
  /** The request carried the distribution's secret. */
  fromDistribution: boolean;
  /** An origin secret is configured and the request did not carry it: the API must refuse it. */
  refused: boolean;
}

interface RequestLike {
  headers?: Record<string, string | undefined> | null;
  requestContext?: { identity?: { sourceIp?: string | null } | null } | null;
}

const header = (event: RequestLike, name: string) => Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];

/** The address of CloudFront-Viewer-Address without its port; undefined when it is not an address and a port. */
export function viewerAddress(value: string | undefined): string | undefined {
  const match = /^(.+):(\d{1,5})$/.exec(value?.trim() ?? '');
  if (!match) return undefined;
  const address = match[1]!.replace(/^\[(.*)\]$/, '$1');
  const ipv4 = /^(\d{1,3})(\.\d{1,3}){3}$/.test(address) && address.split('.').every((part) => Number(part) <= 255);
  const ipv6 = address.includes(':') && /^[0-9a-f:.]+$/i.test(address);
  return ipv4 || ipv6 ? address.toLowerCase() : undefined;
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * Decides a request's client address from its headers and the accepted origin secrets (null: none configured, as in
 * the local runtime, where the TCP peer is the client).
 */
export function clientAddressOf(event: RequestLike, secrets: string[] | null): ClientAddress {
  const peer = event.requestContext?.identity?.sourceIp ?? undefined;
  if (secrets === null) return { ip: peer, fromDistribution: false, refused: false };
  const given = header(event, ORIGIN_VERIFY_HEADER);
  const proven = given !== undefined && secrets.some((secret) => secret.length > 0 && sameSecret(given, secret));
  if (!proven) return { ip: peer, fromDistribution: false, refused: true };
  return { ip: viewerAddress(header(event, VIEWER_ADDRESS_HEADER)) ?? peer, fromDistribution: true, refused: false };
}

/** How long the secret's values are reused before they are read again (a rotation reaches every function within it). */
export const ORIGIN_SECRET_TTL_MS = 5 * 60_000;
let cached: { values: string[]; at: number } | undefined;

/** The origin secret's current and previous values, read at most every five minutes; null when none is configured. */
export async function originSecrets(env: NodeJS.ProcessEnv = process.env, client?: SecretsManagerClient, now = Date.now()): Promise<string[] | null> {
  const secretId = env[ORIGIN_SECRET_ENV];
  if (!secretId) return null;
  if (cached && now - cached.at < ORIGIN_SECRET_TTL_MS) return cached.values;
  const secrets = client ?? new SecretsManagerClient({});
  try {
    const read = async (VersionStage: string) => {
      try {
        return (await secrets.send(new GetSecretValueCommand({ SecretId: secretId, VersionStage }))).SecretString;
      } catch (error) {
        // A secret never rotated has no previous value.
        if (VersionStage === 'AWSPREVIOUS' && (error as Error).name === 'ResourceNotFoundException') return undefined;
        throw error;
      }
    };
    const values = (await Promise.all([read('AWSCURRENT'), read('AWSPREVIOUS')])).filter((v): v is string => typeof v === 'string' && v.length > 0);
    cached = { values, at: now };
    return values;
  } finally {
    if (!client) secrets.destroy();
  }
}

/** Forgets the cached secret values (tests). */
export const resetOriginSecrets = () => void (cached = undefined);

/** The request's client address (see clientAddressOf), with the origin secrets read as configured. */
export async function clientAddress(event: RequestLike): Promise<ClientAddress> {
  return clientAddressOf(event, await originSecrets());
}
