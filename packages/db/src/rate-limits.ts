// db adapter (secondary): token buckets on DynamoDB, shared by every Lambda instance. A bucket is one item holding its
// TAT (core/rate-limits.ts). A take is one conditional UpdateItem, in one of two forms:
//   idle bucket (TAT <= now, or no item):   SET tat = :now + :interval      IF attribute_not_exists(tat) OR tat <= :now
//   busy bucket (now < TAT <= ceiling):     SET tat = tat + :interval       IF tat > :now AND tat <= :ceiling
// The busy form is an atomic addition, so concurrent takers never take more than the bucket holds. The form is guessed
// from the TAT this instance saw last; a wrong guess costs one more round trip (the failed condition returns the
// item). A refusal writes nothing. Several buckets are taken in parallel; when one refuses, the tokens taken from the
// others are given back (an atomic subtraction), so a refused request takes no token. Idle items expire by TTL.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  bucketDecision,
  combineDecisions,
  isRuleOn,
  nowMicros,
  takeCeilingUs,
  tokenIntervalUs,
  type BucketTake,
  type Clock,
  type RateLimitDecision,
  type RateLimiter,
} from '@rivals/core';
import type { TableRef } from './client.js';
import { CONDITIONS, isConditionFailure } from './conditions.js';
import { keys, TABLE_ATTRIBUTES } from './keys.js';

const MAX_ATTEMPTS = 4;
const MAX_HINTS = 10_000;
/** An idle bucket's item outlives the moment it is full again by this much, then DynamoDB's TTL may delete it. */
const IDLE_GRACE_SECONDS = 60;

interface Take {
  allowed: boolean;
  tatUs: number;
}

/** The TAT in a failed condition's item (marshalled or not), if the item was returned. */
function tatOf(item: unknown): number | null | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const tat = (item as Record<string, unknown>).tat;
  if (typeof tat === 'number') return tat;
  if (tat && typeof tat === 'object' && 'N' in tat) return Number((tat as { N: string }).N);
  return null;
}

export class DynamoRateLimiter implements RateLimiter {
  /** The last TAT this instance saw per bucket: only a guess of the form a take should use. */
  private readonly hints = new Map<string, number>();

  constructor(private readonly table: TableRef, private readonly clock: Clock) {}

  async take(buckets: BucketTake[]): Promise<RateLimitDecision | null> {
    const on = buckets.filter((b) => isRuleOn(b.rule));
    if (on.length === 0) return null;
    const now = nowMicros(this.clock);
    const takes = await Promise.all(on.map((b) => this.takeOne(b, now)));
    if (takes.some((t) => !t.allowed)) {
      await Promise.all(on.map((b, i) => (takes[i]!.allowed ? this.giveBack(b) : undefined)));
    }
    return combineDecisions(on.map((b, i) => bucketDecision(b.rule, takes[i]!.tatUs, now, takes[i]!.allowed)));
  }

  private async takeOne({ bucket, rule }: BucketTake, startedAt: number): Promise<Take> {
    const interval = tokenIntervalUs(rule);
    let now = startedAt;
    let idle = (this.hints.get(bucket) ?? 0) <= now;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const ceiling = takeCeilingUs(rule, now);
      const ttl = Math.ceil((now + rule.burst * interval) / 1_000_000) + IDLE_GRACE_SECONDS;
      try {
        const { Attributes } = await this.table.client.send(
          new UpdateCommand({
            TableName: this.table.tableName,
            Key: keys.rateBucket(bucket),
            UpdateExpression: idle ? 'SET tat = :next, #ttl = :ttl' : 'SET tat = tat + :interval, #ttl = :ttl',
            ConditionExpression: idle ? CONDITIONS.bucketIdle : CONDITIONS.bucketHasToken,
            ExpressionAttributeNames: { '#ttl': TABLE_ATTRIBUTES.ttl },
            ExpressionAttributeValues: idle ? { ':next': now + interval, ':now': now, ':ttl': ttl } : { ':interval': interval, ':now': now, ':ceiling': ceiling, ':ttl': ttl },
            ReturnValues: 'UPDATED_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return this.remember(bucket, { allowed: true, tatUs: Number(Attributes?.tat ?? now + interval) });
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        let seen = tatOf((error as { Item?: unknown }).Item);
        if (seen === undefined) seen = await this.read(bucket);
        // The TAT seen may have been set by a concurrent request that read the clock after this one: judged by this
        // request's older clock the bucket can look empty while a token is left, so it is judged again at the time now.
        now = Math.max(now, nowMicros(this.clock));
        if (seen === null || seen <= now) idle = true;
        else if (seen > takeCeilingUs(rule, now)) return this.remember(bucket, { allowed: false, tatUs: seen });
        else idle = false;
      }
    }
    throw new Error(`rate limiter: bucket ${bucket} kept changing under ${MAX_ATTEMPTS} attempts`);
  }

  /** Returns a token taken for a request that another bucket refused. Best effort: a lost give-back costs one token. */
  private async giveBack({ bucket, rule }: BucketTake): Promise<void> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: keys.rateBucket(bucket),
          UpdateExpression: 'SET tat = tat - :interval',
          ConditionExpression: CONDITIONS.bucketExists,
          ExpressionAttributeValues: { ':interval': tokenIntervalUs(rule) },
        }),
      );
    } catch {
      // The bucket expired meanwhile, or the write failed: at worst this request cost the client one token.
    }
  }

  private async read(bucket: string): Promise<number | null> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.tableName, Key: keys.rateBucket(bucket), ConsistentRead: true }));
    return typeof Item?.tat === 'number' ? Item.tat : null;
  }

  private remember(bucket: string, take: Take): Take {
    if (this.hints.size >= MAX_HINTS) this.hints.clear();
    this.hints.set(bucket, take.tatUs);
    return take;
  }
}
