// db: condition expressions, one name each, and the translation of their failures into domain errors.
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

export const CONDITIONS = {
  isNew: 'attribute_not_exists(pk)',
  exists: 'attribute_exists(pk)',
  hasCredits: 'attribute_exists(pk) AND credits >= :cost',
  isRunning: '#status = :running',
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
