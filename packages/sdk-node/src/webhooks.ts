// sdk-node: verification of the webhooks the API sends (`Rivals-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
// "<t>.<raw body>">`, signed with the account's `whsec_` secret).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { RivalsError } from './errors.js';
import type { WebhookEvent } from './types.js';

export const SIGNATURE_HEADER = 'rivals-signature';

export interface VerifyOptions {
  /** Oldest accepted signature, in seconds; default 300. 0 turns the check off. */
  toleranceSeconds?: number;
  /** Now, in unix seconds (tests). */
  now?: number;
}

export class WebhookSignatureError extends RivalsError {
  constructor(message: string) {
    super({ code: 'invalid_signature', message });
  }
}

/** The signature header of `rawBody` at time `t` (what the API sends; useful for tests of a receiver). */
export const signWebhook = (rawBody: string | Uint8Array, secret: string, t = Math.floor(Date.now() / 1000)): string =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex')}`;

/**
 * Checks a webhook's `Rivals-Signature` against the raw request body (as received, before any JSON parsing) and
 * returns the parsed event; throws WebhookSignatureError when the signature is missing, wrong or too old.
 */
export function verifyWebhook<T = WebhookEvent>(rawBody: string | Uint8Array, signatureHeader: string | null | undefined, secret: string, options: VerifyOptions = {}): T {
  if (!signatureHeader) throw new WebhookSignatureError('No Rivals-Signature header.');
  const parts = signatureHeader.split(',').map((part) => part.trim().split('='));
  const t = parts.find(([name]) => name === 't')?.[1];
  const signatures = parts.filter(([name]) => name === 'v1').map(([, value]) => value ?? '');
  if (!t || !/^\d+$/.test(t) || signatures.length === 0) throw new WebhookSignatureError('Malformed Rivals-Signature header.');
  const tolerance = options.toleranceSeconds ?? 300;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (tolerance > 0 && Math.abs(now - Number(t)) > tolerance) throw new WebhookSignatureError('The webhook signature is too old.');
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex'), 'utf8');
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookSignatureError('The webhook signature does not match.');
  return JSON.parse(typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8')) as T;
}
