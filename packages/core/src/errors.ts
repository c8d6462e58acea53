// core: the one domain error type. Services throw it; the HTTP error mapper turns it into the documented body.
import { ERROR_STATUS, type ErrorCode, type ErrorDetail, type FailureReason } from '@rivals/contracts';

export interface ApiErrorExtra {
  details?: ErrorDetail[];
  creditsRemaining?: number;
  creditsRequired?: number;
  refunded?: boolean;
  retryAfterSeconds?: number;
  /** no_competitors_found: why nothing was found. */
  reason?: FailureReason;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: ApiErrorExtra = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const invalidRequest = (message: string, details: ErrorDetail[] = []) =>
  new ApiError('invalid_request', message, details.length ? { details } : {});

export const notFound = (what = 'resource') => new ApiError('not_found', `No such ${what}.`);

export const insufficientCredits = (creditsRemaining: number, creditsRequired: number) =>
  new ApiError('insufficient_credits', `This needs ${creditsRequired} credit(s); ${creditsRemaining} left.`, {
    creditsRemaining,
    creditsRequired,
  });
