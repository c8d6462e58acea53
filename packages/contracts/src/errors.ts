// contracts: the error vocabulary of the API (docs/api.md, "Errors"). Every client and the error mapper use it.
import { z } from 'zod';

/** Error code -> HTTP status. The single table both the server and the clients read. */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_domain: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  insufficient_credits: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  no_competitors_found: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  research_failed: 502,
  research_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const errorCodes = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const ErrorDetail = z.object({ field: z.string(), problem: z.string() });
export type ErrorDetail = z.infer<typeof ErrorDetail>;

export const ErrorBody = z.object({
  error: z
    .object({
      code: z.enum(errorCodes),
      message: z.string(),
      requestId: z.string(),
      details: z.array(ErrorDetail).optional(),
      creditsRemaining: z.number().int().optional(),
      creditsRequired: z.number().int().optional(),
      refunded: z.boolean().optional(),
      retryAfterSeconds: z.number().int().optional(),
      /** On 422 no_competitors_found: why nothing was found (homepage_unreachable, homepage_too_thin, no_rivals_known, filters_excluded_all). */
      reason: z.string().optional(),
    })
    .loose(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Messages of the errors raised outside any handler (API Gateway's own responses, the local front). */
export const GATEWAY_MESSAGES = {
  missing_api_key: 'Send your API key in the X-API-Key header.',
  invalid_api_key: 'The API key is not valid: it is unknown, malformed or revoked.',
  not_found: 'No such route.',
  rate_limited: 'Too many requests from this address; slow down and retry after the Retry-After seconds.',
  method_not_allowed: 'This route does not accept that method; the Allow header lists the ones it does.',
} as const;

/**
 * What the authorizer throws when the key lookups of one IP are over the limit. API Gateway caches no thrown error
 * and answers it with the AUTHORIZER_CONFIGURATION_ERROR gateway response, which the API stack makes a 429.
 */
export const AUTHORIZER_RATE_LIMITED = 'rate_limited';
/** Seconds the gateway's own 429 asks to wait: whole-number rates refill a token within a second. */
export const GATEWAY_RETRY_AFTER_SECONDS = 1;
