// db adapter (secondary): watchlist monitoring (docs/monitoring.md). A watched company is its watchlist row
// (ACCOUNT#<acct> / SAVED#<domain>, which carries the baseline, lastCheckedAt, lastRunId and unseenChanges) plus a
// WATCHED#<shard> index item the fan-out reads. A check is one transaction: the row (only if the run has not checked
// it yet), its changes (ACCOUNT#<acct> / CHANGE#<detectedAt>#<id>; GSI1 CHANGES#<acct>#<domain> for one company's),
// the event owed to the account's endpoint, and the run's counters, so that a redelivered message records nothing.
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Change, WatchedCompetitor, WebhookAttempt } from '@rivals/contracts';
import type { ChangesRequest, CheckRecord, MonitorRun, MonitorState, MonitorStore, Page, RunFinding, WatchEventRecord, WatchEventStore, WatchState, WatchTarget, WebhookEndpointStore } from '@rivals/core';
import { queryPages, transact, type TableRef } from './client.js';
import { failedCondition, isConditionFailure } from './conditions.js';
import { queryKeyPage } from './cursor.js';
import { GSI1, keys, withoutKeys } from './keys.js';

/** Changes are kept a year, undelivered events 30 days (DynamoDB TTL, in seconds). */
const CHANGE_TTL_SECONDS = 365 * 24 * 3600;
const EVENT_TTL_SECONDS = 30 * 24 * 3600;
const ttlAfter = (at: string, seconds: number) => Math.floor(Date.parse(at) / 1000) + seconds;
const NOT_CHECKED_BY_RUN = 'attribute_exists(pk) AND (attribute_not_exists(lastRunId) OR lastRunId <> :run)';

const countKinds = (changes: Change[]) => {
  const counts: Partial<Record<Change['kind'], number>> = {};
  for (const c of changes) counts[c.kind] = (counts[c.kind] ?? 0) + 1;
  return counts;
};

const toChange = (item: Record<string, unknown>): Change => ({
  id: item.id as string,
  domain: item.domain as string,
  kind: item.kind as Change['kind'],
  competitor: item.competitor as WatchedCompetitor,
  ...(item.previous ? { previous: item.previous as WatchedCompetitor } : {}),
  detectedAt: item.detectedAt as string,
});

export class DynamoMonitorStore implements MonitorStore, WebhookEndpointStore, WatchEventStore {
  constructor(private readonly table: TableRef) {}

  private get name() {
    return this.table.tableName;
  }

  watchedShards(): string[] {
    return keys.watchedShards();
  }

  listWatched(shard: string, request: { limit: number; cursor?: string | undefined }): Promise<Page<WatchTarget>> {
    return queryKeyPage(
      this.table,
      { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': shard } },
      { limit: request.limit, ...(request.cursor ? { cursor: request.cursor } : {}), keyNames: ['pk', 'sk'], expected: { pk: shard } },
      (item) => ({ accountId: item.accountId as string, domain: item.domain as string }),
    );
  }

  async getWatch({ accountId, domain }: WatchTarget): Promise<WatchState | null> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.name, Key: keys.saved(accountId, domain), ConsistentRead: true, ProjectionExpression: 'baseline, lastRunId, lastEventId, lastCheckedAt, #d', ExpressionAttributeNames: { '#d': 'domain' } }),
    );
    if (!Item) return null;
    return {
      baseline: (Item.baseline as WatchedCompetitor[] | undefined) ?? null,
      lastRunId: (Item.lastRunId as string | undefined) ?? null,
      lastEventId: (Item.lastEventId as string | undefined) ?? null,
      lastCheckedAt: (Item.lastCheckedAt as string | undefined) ?? null,
    };
  }

  async setBaseline({ accountId, domain }: WatchTarget, competitors: WatchedCompetitor[], checkedAt: string): Promise<boolean> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.name,
          Key: keys.saved(accountId, domain),
          UpdateExpression: 'SET baseline = :c, lastCheckedAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(baseline)',
          ExpressionAttributeValues: { ':c': competitors, ':at': checkedAt },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async recordCheck({ accountId, domain }: WatchTarget, check: CheckRecord): Promise<boolean> {
    const { runId, checkedAt, competitors, changes, event } = check;
    try {
      await transact(this.table, {
        TransactItems: [
          {
            Update: {
              TableName: this.name,
              Key: keys.saved(accountId, domain),
              UpdateExpression: `SET baseline = :c, lastCheckedAt = :at, lastRunId = :run${event ? ', lastEventId = :event' : ''} ADD unseenChanges :n${event ? '' : ' REMOVE lastEventId'}`,
              ConditionExpression: NOT_CHECKED_BY_RUN,
              ExpressionAttributeValues: { ':c': competitors, ':at': checkedAt, ':run': runId, ':n': changes.length, ...(event ? { ':event': event.eventId } : {}) },
            },
          },
          ...changes.map((change) => ({
            Put: {
              TableName: this.name,
              Item: { ...keys.change(accountId, change.detectedAt, change.id), ...keys.changeOfDomain(accountId, domain, change.detectedAt, change.id), ...change, ttl: ttlAfter(checkedAt, CHANGE_TTL_SECONDS) },
            },
          })),
          ...(changes.length
            ? [{ Put: { TableName: this.name, Item: { ...keys.monitorFinding(runId, accountId, domain), accountId, domain, changes: countKinds(changes), ttl: ttlAfter(checkedAt, EVENT_TTL_SECONDS) } } }]
            : []),
          ...(event
            ? [{ Put: { TableName: this.name, Item: { ...keys.watchEvent(accountId, event.eventId), accountId, eventId: event.eventId, body: event.body, state: 'pending', attempts: [], ttl: ttlAfter(checkedAt, EVENT_TTL_SECONDS) } } }]
            : []),
          {
            Update: {
              TableName: this.name,
              Key: keys.monitorRun(runId),
              UpdateExpression: 'ADD checked :one, changed :changed, changes :n',
              ExpressionAttributeValues: { ':one': 1, ':changed': changes.length ? 1 : 0, ':n': changes.length },
            },
          },
        ],
      });
      return true;
    } catch (error) {
      if (failedCondition(error)?.index === 0) return false;
      throw error;
    }
  }

  async recordFailure({ accountId, domain }: WatchTarget, runId: string): Promise<boolean> {
    try {
      await transact(this.table, {
        TransactItems: [
          { Update: { TableName: this.name, Key: keys.saved(accountId, domain), UpdateExpression: 'SET lastRunId = :run REMOVE lastEventId', ConditionExpression: NOT_CHECKED_BY_RUN, ExpressionAttributeValues: { ':run': runId } } },
          { Update: { TableName: this.name, Key: keys.monitorRun(runId), UpdateExpression: 'ADD failed :one', ExpressionAttributeValues: { ':one': 1 } } },
        ],
      });
      return true;
    } catch (error) {
      if (failedCondition(error)?.index === 0) return false;
      throw error;
    }
  }

  async countSkipped(runId: string): Promise<void> {
    await this.table.client.send(new UpdateCommand({ TableName: this.name, Key: keys.monitorRun(runId), UpdateExpression: 'ADD skipped :one', ExpressionAttributeValues: { ':one': 1 } }));
  }

  listChanges(accountId: string, request: ChangesRequest): Promise<Page<Change>> {
    const { pk } = keys.account(accountId);
    const page = { limit: request.limit, ...(request.cursor ? { cursor: request.cursor } : {}) };
    if (request.domain) {
      const { gsi1pk } = keys.changeOfDomain(accountId, request.domain, '', '');
      return queryKeyPage(
        this.table,
        {
          IndexName: GSI1,
          KeyConditionExpression: request.since ? 'gsi1pk = :pk AND gsi1sk >= :since' : 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': gsi1pk, ...(request.since ? { ':since': request.since } : {}) },
          ScanIndexForward: false,
        },
        { ...page, keyNames: ['pk', 'sk', 'gsi1pk', 'gsi1sk'], expected: { pk, gsi1pk }, skPrefix: 'CHANGE#' },
        toChange,
      );
    }
    return queryKeyPage(
      this.table,
      { KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to', ExpressionAttributeValues: { ':pk': pk, ':from': `CHANGE#${request.since ?? ''}`, ':to': 'CHANGE#~' }, ScanIndexForward: false },
      { ...page, keyNames: ['pk', 'sk'], expected: { pk }, skPrefix: 'CHANGE#' },
      toChange,
    );
  }

  async markSeen({ accountId, domain }: WatchTarget): Promise<void> {
    try {
      await this.table.client.send(
        new UpdateCommand({ TableName: this.name, Key: keys.saved(accountId, domain), UpdateExpression: 'SET unseenChanges = :zero', ConditionExpression: 'attribute_exists(pk) AND unseenChanges > :zero', ExpressionAttributeValues: { ':zero': 0 } }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error; // not watched, or nothing unseen
    }
  }

  async listFound(runId: string): Promise<RunFinding[]> {
    const found: RunFinding[] = [];
    for await (const page of queryPages(this.table, { KeyConditionExpression: 'pk = :pk AND begins_with(sk, :found)', ExpressionAttributeValues: { ':pk': keys.monitorRun(runId).pk, ':found': 'FOUND#' } }))
      for (const item of page.Items ?? []) found.push({ accountId: item.accountId as string, domain: item.domain as string, changes: item.changes as RunFinding['changes'] });
    return found;
  }

  async createRun(run: MonitorRun): Promise<boolean> {
    try {
      await this.table.client.send(new PutCommand({ TableName: this.name, Item: { ...keys.monitorRun(run.id), ...run }, ConditionExpression: 'attribute_not_exists(pk)' }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async setRunTotal(runId: string, total: number): Promise<void> {
    await this.table.client.send(new UpdateCommand({ TableName: this.name, Key: keys.monitorRun(runId), UpdateExpression: 'SET #total = :total', ExpressionAttributeNames: { '#total': 'total' }, ExpressionAttributeValues: { ':total': total } }));
  }

  async getRun(runId: string): Promise<MonitorRun | null> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.name, Key: keys.monitorRun(runId), ConsistentRead: true }));
    return Item ? withoutKeys<MonitorRun>(Item) : null;
  }

  async getState(): Promise<MonitorState | null> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.name, Key: keys.monitorState(), ConsistentRead: true }));
    return Item ? { kbVersion: Item.kbVersion as string, lastScheduledAt: Item.lastScheduledAt as string } : null;
  }

  async putState(state: MonitorState): Promise<void> {
    await this.table.client.send(new PutCommand({ TableName: this.name, Item: { ...keys.monitorState(), ...state } }));
  }

  async putEndpoint(accountId: string, url: string, at: string): Promise<void> {
    await this.table.client.send(new PutCommand({ TableName: this.name, Item: { ...keys.webhookEndpoint(accountId), url, updatedAt: at } }));
  }

  async getEndpoint(accountId: string): Promise<{ url: string; updatedAt: string } | null> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.name, Key: keys.webhookEndpoint(accountId), ConsistentRead: true }));
    return Item ? { url: Item.url as string, updatedAt: Item.updatedAt as string } : null;
  }

  async deleteEndpoint(accountId: string): Promise<void> {
    await this.table.client.send(new DeleteCommand({ TableName: this.name, Key: keys.webhookEndpoint(accountId) }));
  }

  async getEvent(accountId: string, eventId: string): Promise<WatchEventRecord | null> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.name, Key: keys.watchEvent(accountId, eventId), ConsistentRead: true }));
    return Item ? { accountId, eventId, body: Item.body as string, state: Item.state as WatchEventRecord['state'], attempts: (Item.attempts as WebhookAttempt[]) ?? [] } : null;
  }

  async recordEventAttempt(accountId: string, eventId: string, attempt: WebhookAttempt, state: WatchEventRecord['state']): Promise<void> {
    await this.table.client.send(
      new UpdateCommand({
        TableName: this.name,
        Key: keys.watchEvent(accountId, eventId),
        UpdateExpression: 'SET #state = :state, attempts = list_append(attempts, :attempt)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':state': state, ':attempt': [attempt] },
      }),
    );
  }
}
