// db adapter (secondary): bulk jobs and their domains. The job's credits are reserved in one transaction; each domain's
// outcome is one transaction conditioned on the domain's state (and the attempt that claimed it), with the job's
// counters, the stored search and, for a refund, the account and its ledger entry: applied once, whatever redelivers.
import { BatchWriteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { insufficientCredits, type SecretSealer, type BulkDomainRecord, type BulkJobRecord, type BulkJobStore, type DomainFailure, type Page, type PageRequest, type SearchRecord } from '@rivals/core';
import type { FailureReason, RejectedRow, WebhookAttempt } from '@rivals/contracts';
import type { TableRef } from './client.js';
import { CONDITIONS, failedCondition, isConditionFailure } from './conditions.js';
import { keys, withoutKeys } from './keys.js';
import type { DynamoCreditsLedger } from './ledger.js';
import { queryPage } from './cursor.js';

/** Most domains one cancel transaction refunds (100 items a transaction: the domains, the account, its entry, the job). */
const CANCEL_BATCH = 97;
const names = { '#status': 'status' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class DynamoBulkJobStore implements BulkJobStore {
  constructor(private readonly table: TableRef, private readonly ledger: DynamoCreditsLedger) {}

  private get name() {
    return this.table.tableName;
  }

  /** Concurrent outcomes of one job all update the job item; DynamoDB cancels conflicting transactions, so retry them. */
  private async transact(input: Omit<TransactWriteCommandInput, 'TransactItems'> & { TransactItems: NonNullable<TransactWriteCommandInput['TransactItems']> }) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.table.client.send(new TransactWriteCommand(input));
      } catch (error) {
        const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
        const conflict = (error as Error).name === 'TransactionConflictException' || (reasons.some((r) => r.Code === 'TransactionConflict') && !reasons.some((r) => r.Code === 'ConditionalCheckFailed'));
        if (!conflict || attempt >= 20) throw error;
        await sleep(Math.random() * 20 * 2 ** Math.min(attempt, 5));
      }
    }
  }

  async putDomains(domains: BulkDomainRecord[]): Promise<void> {
    const batches: BulkDomainRecord[][] = [];
    for (let i = 0; i < domains.length; i += 25) batches.push(domains.slice(i, i + 25));
    const write = async (batch: BulkDomainRecord[]) => {
      let requests = batch.map((d) => ({ PutRequest: { Item: { ...keys.bulkDomain(d.jobId, d.seq), ...d } } }));
      for (let attempt = 0; requests.length > 0; attempt++) {
        const { UnprocessedItems } = await this.table.client.send(new BatchWriteCommand({ RequestItems: { [this.name]: requests } }));
        requests = (UnprocessedItems?.[this.name] ?? []) as typeof requests;
        if (requests.length) await sleep(Math.min(50 * 2 ** attempt, 2000));
      }
    };
    // A few batches at a time.
    const queue = [...batches];
    await Promise.all(Array.from({ length: 8 }, async () => {
      for (let batch = queue.shift(); batch; batch = queue.shift()) await write(batch);
    }));
  }

  private jobItem(job: BulkJobRecord) {
    return { ...keys.bulkJob(job.accountId, job.id), ...job };
  }

  private activeMarker(job: { id: string; accountId: string }) {
    return { Put: { TableName: this.name, Item: { ...keys.activeBulkJob(job.id), accountId: job.accountId, jobId: job.id } } };
  }

  async createJob(job: BulkJobRecord): Promise<void> {
    try {
      await this.transact({
        ClientRequestToken: `c${job.id.slice(-26)}`,
        TransactItems: [
          {
            Update: {
              TableName: this.name,
              Key: keys.account(job.accountId),
              UpdateExpression: 'SET credits = credits - :cost, updatedAt = :now',
              ConditionExpression: CONDITIONS.hasCredits,
              ExpressionAttributeValues: { ':cost': job.creditsReserved, ':now': job.createdAt },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
          { Put: { TableName: this.name, Item: this.jobItem(job), ConditionExpression: CONDITIONS.isNew } },
          this.ledger.entry(job.accountId, -job.creditsReserved, 'bulk reserve', job.id, job.createdAt),
          this.activeMarker(job),
        ],
      });
    } catch (error) {
      const failed = failedCondition(error);
      if (failed?.index === 0) throw insufficientCredits(Number(failed.item?.credits ?? 0), job.creditsReserved);
      throw error;
    }
  }

  async createAwaitingJob(job: BulkJobRecord): Promise<void> {
    await this.transact({
      TransactItems: [{ Put: { TableName: this.name, Item: this.jobItem(job), ConditionExpression: CONDITIONS.isNew } }, this.activeMarker(job)],
    });
  }

  async startAwaitingJob(accountId: string, jobId: string, counts: { totalDomains: number; rejectedRows: RejectedRow[]; at: string }) {
    const n = counts.totalDomains;
    try {
      await this.transact({
        ClientRequestToken: `s${jobId.slice(-26)}`,
        TransactItems: [
          {
            Update: {
              TableName: this.name,
              Key: keys.bulkJob(accountId, jobId),
              UpdateExpression:
                'SET #status = :queued, totalDomains = :n, remainingDomains = :n, creditsReserved = :n, rejectedRows = :rejected, updatedAt = :at',
              ConditionExpression: CONDITIONS.jobAwaiting,
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: { ':queued': 'queued', ':awaiting': 'awaiting_upload', ':n': n, ':rejected': counts.rejectedRows, ':at': counts.at },
            },
          },
          {
            Update: {
              TableName: this.name,
              Key: keys.account(accountId),
              UpdateExpression: 'SET credits = credits - :cost, updatedAt = :now',
              ConditionExpression: CONDITIONS.hasCredits,
              ExpressionAttributeValues: { ':cost': n, ':now': counts.at },
            },
          },
          this.ledger.entry(accountId, -n, 'bulk reserve', jobId, counts.at),
        ],
      });
      return 'started' as const;
    } catch (error) {
      const failed = failedCondition(error);
      if (failed?.index === 0) return 'not_awaiting' as const;
      if (failed?.index === 1) return 'insufficient_credits' as const;
      throw error;
    }
  }

  /** Ends a job (its update, conditioned) and drops its active marker, in one transaction. False when the condition fails. */
  private async endJob(accountId: string, jobId: string, update: { set: string; condition: string; names: Record<string, string>; values: Record<string, unknown> }): Promise<boolean> {
    try {
      await this.transact({
        TransactItems: [
          {
            Update: {
              TableName: this.name,
              Key: keys.bulkJob(accountId, jobId),
              UpdateExpression: `SET ${update.set}`,
              ConditionExpression: update.condition,
              ExpressionAttributeNames: update.names,
              ExpressionAttributeValues: update.values,
            },
          },
          { Delete: { TableName: this.name, Key: keys.activeBulkJob(jobId) } },
        ],
      });
      return true;
    } catch (error) {
      if (failedCondition(error)?.index === 0) return false;
      throw error;
    }
  }

  failAwaitingJob(accountId: string, jobId: string, error: string, at: string): Promise<boolean> {
    return this.endJob(accountId, jobId, {
      set: '#status = :failed, #error = :error, updatedAt = :at, finishedAt = :at',
      condition: CONDITIONS.jobAwaiting,
      names: { ...names, '#error': 'error' },
      values: { ':failed': 'failed', ':awaiting': 'awaiting_upload', ':error': error, ':at': at },
    });
  }

  async getJob(accountId: string, jobId: string): Promise<BulkJobRecord | null> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.name, Key: keys.bulkJob(accountId, jobId), ConsistentRead: true }));
    return Item ? withoutKeys<BulkJobRecord>(Item) : null;
  }

  private async page<T>(query: { pk: string; skPrefix: string }, request: PageRequest, order: 'newest-first' | 'sort-key'): Promise<Page<T>> {
    const { items, nextCursor } = await queryPage(this.table, query, request, order);
    return { items: items.map((i) => withoutKeys<T>(i)), nextCursor };
  }

  async countAwaitingJobs(accountId: string, since: string): Promise<number> {
    // Newest first, stopping at the first job older than `since`: job ids are ordered by time, so the rest are older.
    let count = 0;
    let start: Record<string, unknown> | undefined;
    const { pk, skPrefix } = keys.bulkJobsOf(accountId);
    do {
      const { Items = [], LastEvaluatedKey } = await this.table.client.send(
        new QueryCommand({
          TableName: this.name,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
          ExpressionAttributeNames: { '#status': 'status' },
          ProjectionExpression: '#status, createdAt',
          ScanIndexForward: false,
          ConsistentRead: true,
          Limit: 50,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of Items) {
        if (typeof item.createdAt === 'string' && item.createdAt < since) return count;
        if (item.status === 'awaiting_upload') count++;
      }
      start = LastEvaluatedKey;
    } while (start);
    return count;
  }

  listJobs(accountId: string, request: PageRequest) {
    return this.page<BulkJobRecord>(keys.bulkJobsOf(accountId), request, 'newest-first');
  }

  /** In file order. */
  listDomains(jobId: string, request: PageRequest) {
    return this.page<BulkDomainRecord>(keys.bulkDomainsOf(jobId), request, 'sort-key');
  }

  private async *query<T>(pk: string, skPrefix: string, filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> }): AsyncGenerator<T> {
    let start: Record<string, unknown> | undefined;
    do {
      const { Items, LastEvaluatedKey } = await this.table.client.send(
        new QueryCommand({
          TableName: this.name,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix, ...filter?.values },
          ...(filter ? { FilterExpression: filter.expression, ExpressionAttributeNames: filter.names } : {}),
          ExclusiveStartKey: start,
        }),
      );
      for (const item of Items ?? []) yield withoutKeys<T>(item);
      start = LastEvaluatedKey;
    } while (start);
  }

  allDomains(jobId: string) {
    const { pk, skPrefix } = keys.bulkDomainsOf(jobId);
    return this.query<BulkDomainRecord>(pk, skPrefix);
  }

  unfinishedDomains(jobId: string) {
    const { pk, skPrefix } = keys.bulkDomainsOf(jobId);
    return this.query<BulkDomainRecord>(pk, skPrefix, { expression: '#state IN (:pending, :running)', names: { '#state': 'state' }, values: { ':pending': 'pending', ':running': 'running' } });
  }

  async *activeJobs() {
    const { pk, skPrefix } = keys.activeBulkJobs();
    for await (const marker of this.query<{ accountId: string; jobId: string }>(pk, skPrefix)) yield { accountId: marker.accountId, jobId: marker.jobId };
  }

  async claimDomain(jobId: string, seq: number, at: string, staleBefore: string): Promise<BulkDomainRecord | null> {
    try {
      const { Attributes } = await this.table.client.send(
        new UpdateCommand({
          TableName: this.name,
          Key: keys.bulkDomain(jobId, seq),
          UpdateExpression: 'SET #state = :running, startedAt = :at ADD attempts :one',
          ConditionExpression: CONDITIONS.domainClaimable,
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':pending': 'pending', ':running': 'running', ':staleBefore': staleBefore, ':at': at, ':one': 1 },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? withoutKeys<BulkDomainRecord>(Attributes) : null;
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }

  async markRunning(accountId: string, jobId: string, at: string): Promise<void> {
    await this.table.client
      .send(
        new UpdateCommand({
          TableName: this.name,
          Key: keys.bulkJob(accountId, jobId),
          UpdateExpression: 'SET #status = :running, updatedAt = :at',
          ConditionExpression: '#status = :queued',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ':running': 'running', ':queued': 'queued', ':at': at },
        }),
      )
      .catch((error) => {
        if (!isConditionFailure(error)) throw error;
      });
  }

  async startSearch(search: Omit<SearchRecord, 'status'>): Promise<void> {
    await this.table.client
      .send(new PutCommand({ TableName: this.name, Item: { ...keys.search(search.accountId, search.id), ...search, status: 'running' }, ConditionExpression: CONDITIONS.isNew }))
      .catch((error) => {
        if (!isConditionFailure(error)) throw error;
      });
  }

  private domainUpdate(domain: BulkDomainRecord, set: string, values: Record<string, unknown>, extraNames: Record<string, string> = {}) {
    return {
      Update: {
        TableName: this.name,
        Key: keys.bulkDomain(domain.jobId, domain.seq),
        UpdateExpression: `SET #state = :to, ${set}`,
        ConditionExpression: CONDITIONS.domainRunning,
        ExpressionAttributeNames: { '#state': 'state', ...extraNames },
        ExpressionAttributeValues: { ':running': 'running', ':attempts': domain.attempts, ...values },
      },
    };
  }

  private jobCounters(accountId: string, jobId: string, add: string, at: string) {
    return {
      Update: {
        TableName: this.name,
        Key: keys.bulkJob(accountId, jobId),
        UpdateExpression: `SET updatedAt = :at ADD ${add}`,
        ConditionExpression: CONDITIONS.exists,
        ExpressionAttributeValues: { ':at': at, ':one': 1, ':minus': -1 },
      },
    };
  }

  private token = (kind: string, domain: BulkDomainRecord) => `${kind}${domain.jobId.slice(-26)}${domain.seq}a${domain.attempts}`.slice(0, 36);

  async succeedDomain(domain: BulkDomainRecord, totals: { totalCompetitors: number; likelyCompetitors: number }, at: string): Promise<boolean> {
    try {
      await this.transact({
        ClientRequestToken: this.token('s', domain),
        TransactItems: [
          this.domainUpdate(domain, 'totalCompetitors = :total, likelyCompetitors = :likely, completedAt = :at', {
            ':to': 'succeeded',
            ':total': totals.totalCompetitors,
            ':likely': totals.likelyCompetitors,
            ':at': at,
          }),
          this.jobCounters(domain.accountId, domain.jobId, 'completedDomains :one, creditsCharged :one, remainingDomains :minus', at),
        ],
      });
      return true;
    } catch (error) {
      if (failedCondition(error)?.index === 0 || (error as Error).name === 'IdempotentParameterMismatchException') return false;
      throw error;
    }
  }

  async failDomain(domain: BulkDomainRecord, error: string, at: string, reason?: FailureReason): Promise<DomainFailure> {
    const withReason = reason ? ', #reason = :reason' : '';
    try {
      await this.transact({
        ClientRequestToken: this.token('f', domain),
        TransactItems: [
          this.domainUpdate(domain, `#error = :error, completedAt = :at${withReason}`, { ':to': 'failed', ':error': error, ':at': at, ...(reason ? { ':reason': reason } : {}) }, { '#error': 'error', ...(reason ? { '#reason': 'reason' } : {}) }),
          {
            // The domain's search fails with it; if it had been settled, the domain succeeded after all.
            Update: {
              TableName: this.name,
              Key: keys.search(domain.accountId, domain.searchId),
              UpdateExpression: `SET #status = :failed, #error = :error, completedAt = :at, refunded = :true${withReason}`,
              ConditionExpression: 'attribute_not_exists(pk) OR #status = :running',
              ExpressionAttributeNames: { '#status': 'status', '#error': 'error', ...(reason ? { '#reason': 'reason' } : {}) },
              ExpressionAttributeValues: { ':failed': 'failed', ':running': 'running', ':error': error, ':at': at, ':true': true, ...(reason ? { ':reason': reason } : {}) },
            },
          },
          {
            Update: {
              TableName: this.name,
              Key: keys.account(domain.accountId),
              UpdateExpression: 'SET credits = credits + :one, updatedAt = :at',
              ConditionExpression: CONDITIONS.exists,
              ExpressionAttributeValues: { ':one': 1, ':at': at },
            },
          },
          this.ledger.entry(domain.accountId, 1, 'bulk refund', domain.searchId, at),
          this.jobCounters(domain.accountId, domain.jobId, 'failedDomains :one, creditsRefunded :one, remainingDomains :minus', at),
        ],
      });
      return 'refunded';
    } catch (e) {
      const failed = failedCondition(e);
      if (failed?.index === 1) return 'search-succeeded';
      if (failed?.index === 0 || (e as Error).name === 'IdempotentParameterMismatchException') return 'not-running';
      throw e;
    }
  }

  async finishJobIfDone(accountId: string, jobId: string, at: string): Promise<BulkJobRecord | null> {
    const ended =
      (await this.endJob(accountId, jobId, {
        set: '#status = :completed, finishedAt = :at, updatedAt = :at',
        condition: CONDITIONS.jobDoneActive,
        names,
        values: { ':zero': 0, ':at': at, ':completed': 'completed', ':queued': 'queued', ':running': 'running' },
      })) ||
      (await this.endJob(accountId, jobId, {
        set: 'finishedAt = :at, updatedAt = :at',
        condition: CONDITIONS.jobDoneCancelled,
        names,
        values: { ':zero': 0, ':at': at, ':cancelled': 'cancelled', ':nullType': 'NULL' },
      }));
    return ended ? this.getJob(accountId, jobId) : null;
  }

  async cancelJob(accountId: string, jobId: string, at: string): Promise<boolean> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.name,
          Key: keys.bulkJob(accountId, jobId),
          UpdateExpression: 'SET #status = :cancelled, updatedAt = :at',
          ConditionExpression: CONDITIONS.jobCancellable,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ':cancelled': 'cancelled', ':queued': 'queued', ':running': 'running', ':at': at },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async cancelPendingDomains(job: BulkJobRecord, at: string): Promise<number> {
    let cancelled = 0;
    let batch: BulkDomainRecord[] = [];
    const flush = async () => {
      while (batch.length > 0) {
        const n = batch.length;
        try {
          await this.transact({
            TransactItems: [
              ...batch.map((d) => ({
                Update: {
                  TableName: this.name,
                  Key: keys.bulkDomain(d.jobId, d.seq),
                  UpdateExpression: 'SET #state = :cancelled, #error = :cancelled, completedAt = :at',
                  ConditionExpression: CONDITIONS.domainPending,
                  ExpressionAttributeNames: { '#state': 'state', '#error': 'error' },
                  ExpressionAttributeValues: { ':pending': 'pending', ':cancelled': 'cancelled', ':at': at },
                },
              })),
              {
                Update: {
                  TableName: this.name,
                  Key: keys.account(job.accountId),
                  UpdateExpression: 'SET credits = credits + :n, updatedAt = :at',
                  ConditionExpression: CONDITIONS.exists,
                  ExpressionAttributeValues: { ':n': n, ':at': at },
                },
              },
              this.ledger.entry(job.accountId, n, 'bulk cancel refund', job.id, at),
              {
                Update: {
                  TableName: this.name,
                  Key: keys.bulkJob(job.accountId, job.id),
                  UpdateExpression: 'SET updatedAt = :at ADD cancelledDomains :n, creditsRefunded :n, remainingDomains :minus',
                  ExpressionAttributeValues: { ':n': n, ':minus': -n, ':at': at },
                },
              },
            ],
          });
          cancelled += n;
          batch = [];
        } catch (error) {
          // A worker claimed one of them meanwhile: drop it and refund the rest.
          const failed = failedCondition(error);
          if (failed === null || failed.index >= batch.length) throw error;
          batch.splice(failed.index, 1);
        }
      }
    };
    for await (const domain of this.unfinishedDomains(job.id)) {
      if (domain.state !== 'pending') continue;
      batch.push(domain);
      if (batch.length === CANCEL_BATCH) await flush();
    }
    await flush();
    return cancelled;
  }

  async recordWebhookAttempt(accountId: string, jobId: string, attempt: WebhookAttempt, state: BulkJobRecord['webhookState']): Promise<void> {
    await this.table.client.send(
      new UpdateCommand({
        TableName: this.name,
        Key: keys.bulkJob(accountId, jobId),
        UpdateExpression: 'SET webhookAttempts = list_append(if_not_exists(webhookAttempts, :empty), :attempt), webhookState = :state',
        ConditionExpression: CONDITIONS.exists,
        ExpressionAttributeValues: { ':empty': [], ':attempt': [attempt], ':state': state },
      }),
    );
  }
}

/** The account's webhook signing secret, one item in its partition. */
/**
 * Webhook signing secrets, sealed (`sealed`, see @rivals/core sealing.ts) when a sealer is given. A secret stored
 * before sealing (`secret`, in plain text) is still read as it is, and is sealed when next written (a rotation).
 */
export class DynamoWebhookSecretStore {
  constructor(private readonly table: TableRef, private readonly sealer?: SecretSealer) {}

  /** Creates or rotates (an unconditional put: the new secret replaces the old, and a plain one goes). */
  async put(accountId: string, secret: string, at: string): Promise<void> {
    const stored = this.sealer ? { sealed: await this.sealer.seal(secret, accountId) } : { secret };
    await this.table.client.send(new PutCommand({ TableName: this.table.tableName, Item: { ...keys.webhookSecret(accountId), ...stored, createdAt: at } }));
  }

  async get(accountId: string): Promise<string | null> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.tableName, Key: keys.webhookSecret(accountId), ConsistentRead: true }));
    if (typeof Item?.sealed === 'string') {
      if (!this.sealer) throw new Error('a sealed webhook secret, and no key to open it');
      return this.sealer.open(Item.sealed, accountId);
    }
    return (Item?.secret as string | undefined) ?? null;
  }

  async has(accountId: string): Promise<boolean> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.tableName, Key: keys.webhookSecret(accountId), ConsistentRead: true, ProjectionExpression: 'pk' }),
    );
    return Item !== undefined;
  }
}
