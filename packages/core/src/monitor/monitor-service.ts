// core use case: watchlist monitoring (docs/monitoring.md). Every saved company is watched: saving records the
// competitor set a search of it shows (its top 25) as its baseline; a run re-researches every watched company with
// the search's own engine (no credit: the operator pays for monitoring), records what changed against the baseline,
// and owes the account's webhook endpoint a signed `watchlist.changed` event per company that changed. Runs start on
// the schedule (daily by default) and when the knowledge base's version changes; they fan out through the monitor
// queue in batches. Each check is one conditional transaction, so a redelivered or repeated message records nothing twice.
import { SEARCH_LIMIT_MAX, type Change, type ChangesPage, type WatchedCompetitor, type WatchlistChangedEvent, type WebhookEndpoint } from '@rivals/contracts';
import { normalizeDomain } from '../domain.js';
import { invalidRequest } from '../errors.js';
import type { Clock, IdGenerator, ResearchEngine } from '../ports.js';
import type { WebhookQueue, WebhookSecretStore, WebhookUrlGuard } from '../bulk/ports.js';
import { diffCompetitors, watchedSet } from './diff.js';
import type { ChangesRequest, MonitorMessage, MonitorQueue, MonitorRun, MonitorRunReason, MonitorStore, WatchTarget, WebhookEndpointStore } from './ports.js';

/** Watched companies per queue message: a worker checks them one after another. */
export const MONITOR_BATCH = 5;
export const DEFAULT_MONITOR_EVERY_HOURS = 24;

/** What every use needs (the store, the endpoints, a clock and ids); the rest only where it is used (`need`). */
export interface MonitorServiceDeps {
  store: MonitorStore;
  endpoints: WebhookEndpointStore;
  /** Setting an endpoint needs the account's signing secret. */
  secrets?: WebhookSecretStore;
  /** The search's engine (knowledge base, discovered companies, profile cache). */
  engine?: ResearchEngine;
  queue?: MonitorQueue;
  webhookQueue?: WebhookQueue;
  /** The bulk webhooks' own check of where a URL leads. */
  webhookUrls?: WebhookUrlGuard;
  clock: Clock;
  ids: IdGenerator;
  /** A check's research finishes within this many milliseconds, or the check fails (and records nothing). */
  deadlineMs?: number;
  /** The knowledge base version this process researches with. */
  kbVersion?: string;
  everyHours?: number;
  onError?: (target: WatchTarget, error: unknown) => void;
}

export type CheckOutcome = { status: 'recorded'; changes: Change[] } | { status: 'already' | 'skipped' | 'failed'; changes: [] };

export class MonitorService {
  constructor(private readonly deps: MonitorServiceDeps) {}

  private need<K extends keyof MonitorServiceDeps>(name: K): NonNullable<MonitorServiceDeps[K]> {
    const value = this.deps[name];
    if (value === undefined) throw new Error(`MonitorService: ${String(name)} is not wired here`);
    return value as NonNullable<MonitorServiceDeps[K]>;
  }

  /** The top of a default search of `domain`, researched with the search's engine; null when the research fails. */
  async research(target: WatchTarget): Promise<WatchedCompetitor[] | null> {
    const engine = this.need('engine');
    try {
      const outcome = await engine.research({ domain: target.domain, limit: SEARCH_LIMIT_MAX, signal: AbortSignal.timeout(this.need('deadlineMs')), accountId: target.accountId, via: 'search' });
      return outcome.competitors.length ? watchedSet(outcome.competitors) : null;
    } catch (error) {
      this.deps.onError?.(target, error);
      return null;
    }
  }

  /**
   * Saving a company: records its baseline (free). When the research fails the row has none, and the first check
   * records one without reporting changes. Returns when the baseline was recorded (its lastCheckedAt), or null.
   */
  async watch(target: WatchTarget): Promise<string | null> {
    const competitors = await this.research(target);
    if (!competitors) return null;
    const checkedAt = this.deps.clock.now().toISOString();
    return (await this.deps.store.setBaseline(target, competitors, checkedAt)) ? checkedAt : null;
  }

  /** Checks one watched company for run `runId`. */
  async check(runId: string, target: WatchTarget): Promise<CheckOutcome> {
    const { store, clock, ids } = this.deps;
    const watch = await store.getWatch(target);
    if (!watch) {
      await store.countSkipped(runId);
      return { status: 'skipped', changes: [] };
    }
    if (watch.lastRunId === runId) {
      // Recorded before: if the process died before sending its event, this delivery sends it (at least once).
      if (watch.lastEventId && watch.lastCheckedAt) await this.enqueueEvent(target.accountId, watch.lastEventId, watch.lastCheckedAt);
      return { status: 'already', changes: [] };
    }
    const competitors = await this.research(target);
    if (!competitors) {
      await store.recordFailure(target, runId);
      return { status: 'failed', changes: [] };
    }
    const checkedAt = clock.now().toISOString();
    const changes: Change[] = (watch.baseline ? diffCompetitors(watch.baseline, competitors) : []).map((draft) => ({
      id: ids.next('chg'),
      domain: target.domain,
      kind: draft.kind,
      competitor: draft.competitor,
      ...(draft.previous ? { previous: draft.previous } : {}),
      detectedAt: checkedAt,
    }));
    const endpoint = changes.length && this.deps.webhookQueue ? await this.deps.endpoints.getEndpoint(target.accountId) : null;
    let event: { eventId: string; body: string } | undefined;
    if (endpoint) {
      const body: WatchlistChangedEvent = { id: ids.next('evt'), type: 'watchlist.changed', createdAt: checkedAt, data: { domain: target.domain, changes } };
      event = { eventId: body.id, body: JSON.stringify(body) };
    }
    if (!(await store.recordCheck(target, { runId, checkedAt, competitors, changes, ...(event ? { event } : {}) }))) return { status: 'already', changes: [] };
    if (event) await this.enqueueEvent(target.accountId, event.eventId, checkedAt);
    return { status: 'recorded', changes };
  }

  private enqueueEvent(accountId: string, eventId: string, at: string) {
    return this.need('webhookQueue').enqueue({ accountId, event: 'watchlist.changed', eventId, firstAttemptAt: at, attempt: 0, notBefore: at }, 0);
  }

  /** One queue message: its companies one after another. */
  async checkBatch(message: MonitorMessage): Promise<void> {
    for (const target of message.targets) await this.check(message.runId, target);
  }

  /**
   * Starts run `id` (unless it was started already) and sends every watched company to the monitor queue. Returns
   * the run, or null when it existed.
   */
  async startRun(reason: MonitorRunReason, id = this.deps.ids.next('run')): Promise<MonitorRun | null> {
    const { store } = this.deps;
    const queue = this.need('queue');
    const run: MonitorRun = { id, reason, kbVersion: this.deps.kbVersion ?? 'unknown', startedAt: this.deps.clock.now().toISOString(), total: null, checked: 0, changed: 0, changes: 0, failed: 0, skipped: 0 };
    if (!(await store.createRun(run))) return null;
    let total = 0;
    for (const shard of store.watchedShards()) {
      let cursor: string | undefined;
      do {
        const page = await store.listWatched(shard, { limit: 100, ...(cursor ? { cursor } : {}) });
        const messages: MonitorMessage[] = [];
        for (let i = 0; i < page.items.length; i += MONITOR_BATCH) messages.push({ runId: id, targets: page.items.slice(i, i + MONITOR_BATCH) });
        await queue.enqueue(messages);
        total += page.items.length;
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
    }
    await store.setRunTotal(id, total);
    return { ...run, total };
  }

  /**
   * The schedule's tick (hourly): starts a run when the knowledge base's version differs from the last run's, or
   * when `everyHours` passed since the last scheduled run. Run ids are derived from what started them, so two ticks
   * never start the same run twice.
   */
  async tick(): Promise<MonitorRun | null> {
    const { store, clock } = this.deps;
    const kbVersion = this.deps.kbVersion ?? 'unknown';
    const now = clock.now();
    const state = await store.getState();
    if (!state) {
      // First tick of a deployment: saved companies took their baselines with this knowledge base.
      await store.putState({ kbVersion, lastScheduledAt: now.toISOString() });
      return null;
    }
    const everyMs = (this.deps.everyHours ?? DEFAULT_MONITOR_EVERY_HOURS) * 3_600_000;
    if (state.kbVersion !== kbVersion) {
      await store.putState({ kbVersion, lastScheduledAt: now.toISOString() });
      return this.startRun('knowledge-base', `run_kb-${kbVersion}`);
    }
    if (now.getTime() - Date.parse(state.lastScheduledAt) < everyMs) return null;
    const slot = new Date(Math.floor(now.getTime() / everyMs) * everyMs).toISOString();
    await store.putState({ kbVersion, lastScheduledAt: now.toISOString() });
    return this.startRun('schedule', `run_schedule-${slot}`);
  }

  /** GET /api/changes; with `domain`, that company's changes count as seen. */
  async changes(accountId: string, request: ChangesRequest): Promise<ChangesPage> {
    const domain = request.domain === undefined ? undefined : normalizeDomain(request.domain);
    const since = request.since === undefined ? undefined : new Date(request.since).toISOString();
    const page = await this.deps.store.listChanges(accountId, { limit: request.limit, cursor: request.cursor, domain, since });
    if (domain && !request.cursor) await this.deps.store.markSeen({ accountId, domain });
    return page;
  }

  async setEndpoint(accountId: string, url: string): Promise<WebhookEndpoint> {
    const problem = await this.deps.webhookUrls?.check(url);
    if (problem) throw invalidRequest(`The webhook URL cannot be used: ${problem}.`, [{ field: 'url', problem }]);
    if (!(await this.need('secrets').has(accountId))) throw invalidRequest('Create a webhook signing secret first (POST /api/webhook-secret).', [{ field: 'url', problem: 'no signing secret' }]);
    const updatedAt = this.deps.clock.now().toISOString();
    await this.deps.endpoints.putEndpoint(accountId, url, updatedAt);
    return { url, events: ['watchlist.changed'], updatedAt };
  }

  async getEndpoint(accountId: string): Promise<WebhookEndpoint | null> {
    const found = await this.deps.endpoints.getEndpoint(accountId);
    return found ? { url: found.url, events: ['watchlist.changed'], updatedAt: found.updatedAt } : null;
  }

  removeEndpoint(accountId: string): Promise<void> {
    return this.deps.endpoints.deleteEndpoint(accountId);
  }
}
