// sdk-node: the typed errors of every Rivals client. One class per kind of failure, each carrying the API's error
// code, the HTTP status and the request id; the Python SDK mirrors these names.
import type { ErrorCode, ErrorDetail } from '@rivals/contracts';

/** Codes the API answers with, plus the client's own: a request that never got an answer. */
export type RivalsErrorCode = ErrorCode | 'connection_error' | 'timeout' | 'invalid_response';

export interface RivalsErrorInit {
  code: RivalsErrorCode | (string & {});
  message: string;
  status?: number | null;
  requestId?: string | null;
  details?: ErrorDetail[];
  retryAfterSeconds?: number | null;
  /** The error object of the body as the API sent it (creditsRemaining, refunded, ...). */
  body?: Record<string, unknown> | null;
  cause?: unknown;
}

/** Every error the SDK throws (except an abort the caller asked for, which stays the caller's AbortError). */
export class RivalsError extends Error {
  readonly code: string;
  readonly status: number | null;
  readonly requestId: string | null;
  readonly details: ErrorDetail[];
  readonly retryAfterSeconds: number | null;
  readonly body: Record<string, unknown> | null;

  constructor(init: RivalsErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.status = init.status ?? null;
    this.requestId = init.requestId ?? null;
    this.details = init.details ?? [];
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
    this.body = init.body ?? null;
  }

  /** Credits left, on 402 insufficient_credits and 422 no_competitors_found. */
  get creditsRemaining(): number | null {
    const value = this.body?.creditsRemaining;
    return typeof value === 'number' ? value : null;
  }

  /** Credits a refused call needed, on 402 insufficient_credits. */
  get creditsRequired(): number | null {
    const value = this.body?.creditsRequired;
    return typeof value === 'number' ? value : null;
  }

  /**
   * On 422 no_competitors_found: why nothing was found (`homepage_unreachable`, `homepage_too_thin`, `no_rivals_known`,
   * `filters_excluded_all`); null otherwise.
   */
  get reason(): string | null {
    const value = this.body?.reason;
    return typeof value === 'string' ? value : null;
  }

  /** True when the API says the search's credit is back (failed and timed-out searches, no competitors found). */
  get refunded(): boolean {
    return this.body?.refunded === true;
  }
}

/** The API answered with an error (4xx or 5xx). */
export class RivalsApiError extends RivalsError {}
/** 400, 405, 413, 415: the request itself is wrong (`invalid_request`, `invalid_domain`, ...). */
export class InvalidRequestError extends RivalsApiError {}
/** 400 `invalid_domain`: not a public company domain. */
export class InvalidDomainError extends InvalidRequestError {}
/** 401: `missing_api_key` or `invalid_api_key`. */
export class AuthenticationError extends RivalsApiError {}
/** 402: `insufficient_credits`; `creditsRemaining` says how many are left. */
export class InsufficientCreditsError extends RivalsApiError {}
/** 403: `forbidden`. */
export class PermissionDeniedError extends RivalsApiError {}
/** 404: `not_found` (an unknown id, or one of another account). */
export class NotFoundError extends RivalsApiError {}
/** 409: `conflict`, `idempotency_in_progress`. */
export class ConflictError extends RivalsApiError {}
/** 422: `no_competitors_found` (refunded), `idempotency_key_reused`. */
export class UnprocessableError extends RivalsApiError {}
/** 409 `idempotency_in_progress`: a request with the same key still runs (retried by the SDK). */
export class IdempotencyInProgressError extends ConflictError {}
/** 422 `idempotency_key_reused`: the Idempotency-Key was used before with a different body. */
export class IdempotencyKeyReusedError extends UnprocessableError {}
/** 422 `no_competitors_found`: the search ran and found nothing; its credit is refunded. */
export class NoCompetitorsFoundError extends UnprocessableError {}
/** 429: `rate_limited`, still so after the retries; `retryAfterSeconds` says how long to wait. */
export class RateLimitError extends RivalsApiError {}
/** 5xx: `internal_error`, `research_failed`, `research_timeout` (a failed search is refunded). */
export class ServerError extends RivalsApiError {}
/** No answer: the network failed, or the answer was not the API's. */
export class RivalsConnectionError extends RivalsError {}
/** No answer within the call's timeout. */
export class RivalsTimeoutError extends RivalsConnectionError {}

/** `bulk.wait` / `bulk.run` saw the job end as `failed` (`code` is the job's error, e.g. insufficient_credits). */
export class BulkJobFailedError extends RivalsError {
  readonly job: unknown;
  constructor(init: RivalsErrorInit & { job: unknown }) {
    super(init);
    this.job = init.job;
  }
}

const BY_CODE: Record<string, typeof RivalsApiError> = {
  invalid_domain: InvalidDomainError,
  idempotency_in_progress: IdempotencyInProgressError,
  idempotency_key_reused: IdempotencyKeyReusedError,
  no_competitors_found: NoCompetitorsFoundError,
};

const BY_STATUS: Record<number, typeof RivalsApiError> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  402: InsufficientCreditsError,
  403: PermissionDeniedError,
  404: NotFoundError,
  405: InvalidRequestError,
  409: ConflictError,
  413: InvalidRequestError,
  415: InvalidRequestError,
  422: UnprocessableError,
  429: RateLimitError,
};

/** The class of an API error: by its code where a code has its own class, else by its status. */
export const errorClassFor = (status: number, code?: string): typeof RivalsApiError =>
  (code ? BY_CODE[code] : undefined) ?? BY_STATUS[status] ?? (status >= 500 ? ServerError : RivalsApiError);

/** Default code of a status whose answer carried none (a proxy's page, an empty body). */
export const codeForStatus = (status: number): string =>
  ({ 400: 'invalid_request', 401: 'invalid_api_key', 402: 'insufficient_credits', 403: 'forbidden', 404: 'not_found', 405: 'method_not_allowed', 409: 'conflict', 413: 'payload_too_large', 415: 'unsupported_media_type', 429: 'rate_limited', 502: 'research_failed', 504: 'research_timeout' } as Record<number, string>)[status] ??
  (status >= 500 ? 'internal_error' : 'invalid_request');
