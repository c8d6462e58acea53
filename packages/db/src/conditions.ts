// db: condition expressions, one name each, and the translation of their failures into domain errors.
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

export const CONDITIONS = {
  isNew: 'attribute_not_exists(pk)',
  exists: 'attribute_exists(pk)',
  hasCredits: 'attribute_exists(pk) AND credits >= :cost',
  isRunning: '#status = :running',
  /** A bulk domain that may be claimed: never started, or started by a worker that has since died. */
  domainClaimable: '#state = :pending OR (#state = :running AND startedAt < :staleBefore)',
  domainRunning: '#state = :running AND attempts = :attempts',
  domainPending: '#state = :pending',
  jobAwaiting: '#status = :awaiting',
  jobCancellable: '#status IN (:queued, :running)',
  jobDoneActive: 'remainingDomains = :zero AND #status IN (:queued, :running)',
  jobDoneCancelled: 'remainingDomains = :zero AND #status = :cancelled AND attribute_type(finishedAt, :nullType)',
  /** An API key record that exists and is not revoked. */
  keyIsLive: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
  /** A live key last used before :notBefore (or never): lastUsedAt is written at most once a minute. */
  keyUseIsStale: 'attribute_exists(pk) AND attribute_not_exists(revokedAt) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :notBefore)',
  /** An account that counts its live keys, below the cap :max. */
  keyCountBelow: 'attribute_exists(pk) AND activeKeys < :max',
  /** An account that counts its live keys. */
  keyCounted: 'attribute_exists(pk) AND attribute_exists(activeKeys)',
  /** An account left with more than :min live keys once one is revoked. */
  keyCountAbove: 'activeKeys > :min',
  /** An account that does not count its live keys yet (one opened before the count existed). */
  keyUncounted: 'attribute_exists(pk) AND attribute_not_exists(activeKeys)',
  /** A token bucket that is full (its TAT has passed) or was never used. */
  bucketIdle: 'attribute_not_exists(tat) OR tat <= :now',
  /** A token bucket in use that still holds a token (core/rate-limits.ts). */
  bucketHasToken: 'tat > :now AND tat <= :ceiling',
  bucketExists: 'attribute_exists(tat)',
} as const;

export const isConditionFailure = (error: unknown): error is ConditionalCheckFailedException =>
  error instanceof ConditionalCheckFailedException || (error as { name?: string })?.name === 'ConditionalCheckFailedException';

/**
 * For a cancelled transaction: the index of the first operation whose condition failed, and the item it saw
 * (ReturnValuesOnConditionCheckFailure: ALL_OLD). Null when the transaction failed for another reason.
 */
export function failedCondition(error: unknown): { index: number; item: Record<string, unknown> | null } | null {
  const cancelled = error instanceof TransactionCanceledException || (error as { name?: string })?.name === 'TransactionCanceledException';
  if (!cancelled) return null;
  const reasons = (error as TransactionCanceledException).CancellationReasons ?? [];
  const index = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
  if (index < 0) return null;
  const raw = reasons[index]?.Item;
  return { index, item: raw ? unmarshall(raw as never) : null };
}

/** A transaction cancelled only because another one touched the same item at the same moment (no condition failed). */
export function isTransactionConflict(error: unknown): boolean {
  if ((error as { name?: string })?.name === 'TransactionConflictException') return true;
  if ((error as { name?: string })?.name !== 'TransactionCanceledException') return false;
  const reasons = (error as TransactionCanceledException).CancellationReasons ?? [];
  return reasons.some((r) => r.Code === 'TransactionConflict') && !reasons.some((r) => r.Code === 'ConditionalCheckFailed');
}

/** Runs a transaction again, after a short random pause, while it only lost a race with another (a few times). */
export async function retryOnConflict<T>(run: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= attempts || !isTransactionConflict(error)) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * 10 * 2 ** attempt));
    }
  }
}
