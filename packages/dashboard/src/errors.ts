// dashboard: what an error means to a person. One sentence for every code the API answers with (the Record type
// makes a missing code a compile error) and for the client's own failures (no answer, a timeout).
import type { ErrorCode, FailureReason } from '@rivals/contracts';
import { RivalsError } from '@rivals/sdk/browser';

type ClientCode = 'connection_error' | 'timeout' | 'invalid_response';

export const ERROR_SENTENCES: Record<ErrorCode | ClientCode, string> = {
  invalid_request: 'Something in the request is not right; check the highlighted fields and try again.',
  invalid_domain: 'That does not look like a company website. Enter a domain such as stripe.com.',
  missing_api_key: 'Sign in with your API key to continue.',
  invalid_api_key: 'This API key is not valid: it is unknown, mistyped or has been revoked.',
  insufficient_credits: 'You do not have enough credits for this.',
  forbidden: 'Your key is not allowed to do this.',
  not_found: 'We could not find that. It may have been deleted, or the link is wrong.',
  method_not_allowed: 'The dashboard asked for something the API does not do. Reload the page and try again.',
  conflict: 'That changed while you were working on it. Reload and try again.',
  idempotency_in_progress: 'The same request is still being processed. Wait a moment and try again.',
  payload_too_large: 'The file is too large. Split it into smaller files.',
  unsupported_media_type: 'That file type is not supported. Upload a CSV file.',
  no_competitors_found: 'We found no competitors for this company. Your credit was refunded.',
  idempotency_key_reused: 'This request was already sent with different content. Reload and try again.',
  rate_limited: 'Too many requests in a short time.',
  internal_error: 'Something went wrong on our side. Try again in a moment.',
  research_failed: 'The research could not be completed. Your credit was refunded; try again later.',
  research_timeout: 'The research took too long and was stopped. Your credit was refunded; try again.',
  connection_error: 'We could not reach Rivals. Check your connection and try again.',
  timeout: 'Rivals did not answer in time. Try again.',
  invalid_response: 'Rivals sent an answer the dashboard did not understand. Reload and try again.',
};

/** Why a search found nothing (the 422's `reason`), said to a person, with what to try. */
export const REASON_SENTENCES: Record<FailureReason, string> = {
  homepage_unreachable: 'We do not know this company yet, and its website could not be read. Check the domain for a typo, or try the domain its website lives on. Your credit was refunded.',
  homepage_too_thin: 'We do not know this company yet, and its homepage says too little to tell what it does. Try the domain of its main product site. Your credit was refunded.',
  no_rivals_known: 'We know this company, but no competitors of it are known yet. Your credit was refunded.',
  filters_excluded_all: 'Competitors were found, but none match your filters. Loosen the filters and try again. Your credit was refunded.',
};

export interface Problem {
  code: string;
  sentence: string;
  /** Seconds to wait before trying again (429). */
  retryAfterSeconds: number | null;
  requestId: string | null;
  /** Per-field problems of a 400. */
  details: { field: string; problem: string }[];
  creditsRemaining: number | null;
  creditsRequired: number | null;
}

export function describeError(error: unknown): Problem {
  if (error instanceof RivalsError) {
    const known = (ERROR_SENTENCES as Record<string, string>)[error.code];
    let sentence = (error.reason ? (REASON_SENTENCES as Record<string, string>)[error.reason] : undefined) ?? known ?? error.message;
    const wait = error.retryAfterSeconds;
    if (error.code === 'rate_limited') sentence = `${sentence} Wait ${Math.max(1, Math.ceil(wait ?? 1))} second${Math.ceil(wait ?? 1) > 1 ? 's' : ''} and try again.`;
    const body = error.body ?? {};
    const num = (v: unknown) => (typeof v === 'number' ? v : null);
    return {
      code: error.code,
      sentence,
      retryAfterSeconds: wait,
      requestId: error.requestId,
      details: error.details,
      creditsRemaining: num(body.creditsRemaining),
      creditsRequired: num(body.creditsRequired),
    };
  }
  return { code: 'unknown', sentence: ERROR_SENTENCES.internal_error, retryAfterSeconds: null, requestId: null, details: [], creditsRemaining: null, creditsRequired: null };
}

/** The key no longer opens the account: the session must end. */
export const isAuthError = (error: unknown) => error instanceof RivalsError && (error.code === 'invalid_api_key' || error.code === 'missing_api_key');
