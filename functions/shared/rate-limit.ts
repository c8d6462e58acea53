// composition root: the rate limits of docs/api.md applied at the edge of every function. The HTTP chain takes a token per
// IP and per key before any work; the authorizer takes one per IP before it looks a key up. A limiter that cannot be
// reached lets the request through (logged): an outage of the limits must not become an outage of the API.
import { ApiError, type BucketTake, type RateLimitDecision } from '@rivals/core';
import { services } from './container.js';
import { logger } from './observability.js';

export async function takeTokens(buckets: BucketTake[]): Promise<RateLimitDecision | null> {
  if (buckets.length === 0) return null;
  try {
    return await services().rateLimiter.take(buckets);
  } catch (error) {
    logger.error('rate limiter unavailable; request let through', { error: error as Error });
    return null;
  }
}

/** The RateLimit-* headers of every response (IETF draft "RateLimit header fields for HTTP"), Retry-After on 429. */
export function rateLimitHeaders(decision: RateLimitDecision | undefined | null): Record<string, string> {
  if (!decision) return {};
  return {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.resetSeconds),
    ...(decision.allowed ? {} : { 'retry-after': String(decision.retryAfterSeconds) }),
  };
}

export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError('rate_limited', `Too many requests; retry in ${retryAfterSeconds} s.`, { retryAfterSeconds });
