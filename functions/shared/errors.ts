// composition root: THE error mapper. Every failure of every HTTP function becomes the documented body here.
import { IdempotencyAlreadyInProgressError, IdempotencyValidationError } from '@aws-lambda-powertools/idempotency';
import type { ErrorBody } from '@rivals/contracts';
import { ApiError } from '@rivals/core';
import { logger } from './observability.js';

/** middy's own HTTP errors (body parser) carry a statusCode. */
const middyStatus = (error: unknown): number | undefined => {
  const status = (error as { statusCode?: unknown; expose?: unknown })?.statusCode;
  return typeof status === 'number' && (error as { expose?: unknown }).expose !== undefined ? status : undefined;
};

/** Any thrown value as an ApiError: domain errors pass through, known library errors get their code, the rest 500. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof IdempotencyValidationError)
    return new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.');
  if (error instanceof IdempotencyAlreadyInProgressError)
    return new ApiError('idempotency_in_progress', 'A request with this Idempotency-Key is still running; retry shortly.');
  switch (middyStatus(error)) {
    case 415:
      return new ApiError('unsupported_media_type', 'Send the request body as JSON with Content-Type: application/json.');
    case 413:
      return new ApiError('payload_too_large', 'The request body is too large.');
    case 400:
    case 422:
      return new ApiError('invalid_request', 'The request body is not valid JSON.', { details: [{ field: 'body', problem: 'malformed JSON' }] });
  }
  logger.error('unhandled error', { error: error as Error });
  return new ApiError('internal_error', 'Something went wrong on our side. Retry, or contact support with the request id.');
}

export function errorBody(error: ApiError, requestId: string): ErrorBody {
  return { error: { code: error.code, message: error.message, requestId, ...error.extra } };
}
