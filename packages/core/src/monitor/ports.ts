// core: the ports of watchlist monitoring (docs/monitoring.md). Adapters (db, aws) implement them.
import type { Change, ChangeKind, WatchedCompetitor, WebhookAttempt } from '@rivals/contracts';
import type { Page, PageRequest } from '../ports.js';

/** One watched company: a watchlist row of one account. */
export interface WatchTarget {
  accountId: string;
  domain: string;
}

/** What a check needs of a watched company. */
export interface WatchState {
  /** The competitor set the next check compares against; null until one was recorded. */
  baseline: WatchedCompetitor[] | null;
  /** The run that last checked it (a redelivered message of that run records nothing). */
  lastRunId: string | null;
  /** The event that check owed the endpoint, if any: a redelivered message sends it again (the sender skips it once delivered). */
  lastEventId?: string | null;
  /** When that check ran. */
  lastCheckedAt?: string | null;
}

export type MonitorRunReason = 'schedule' | 'knowledge-base' | 'manual';

export interface MonitorRun {
  id: string;
  reason: MonitorRunReason;
  kbVersion: string;
  startedAt: string;
  /** Watched companies sent to be checked; null while the fan-out is still sending. */
  total: number | null;
  /** Checks recorded (counted in the check's own transaction, so exactly once each). */
  checked: number;
  /** Companies whose check found changes, and how many changes. */
  changed: number;
  changes: number;
  /** Checks whose research failed (nothing recorded; the baseline stays) and companies no longer watched. */
  failed: number;
  skipped: number;
}

/** The schedule's memory: which knowledge base the last run used and when the last scheduled run started. */
export interface MonitorState {
  kbVersion: string;
  lastScheduledAt: string;
}

/** A `watchlist.changed` event owed to the account's endpoint, kept until delivered or abandoned. */
export interface WatchEventRecord {
  accountId: string;
  eventId: string;
  /** The event's JSON, exactly as it is signed and sent. */
  body: string;
  state: 'pending' | 'delivered' | 'abandoned';
  attempts: WebhookAttempt[];
}

export interface RunFinding extends WatchTarget {
  changes: Partial<Record<ChangeKind, number>>;
}

export interface CheckRecord {
  runId: string;
  checkedAt: string;
  /** The new baseline. */
  competitors: WatchedCompetitor[];
  changes: Change[];
  /** Written with the changes when the account has an endpoint. */
  event?: { eventId: string; body: string };
}

export interface ChangesRequest extends PageRequest {
  domain?: string | undefined;
  /** ISO time: changes detected at or after it. */
  since?: string | undefined;
}

export interface MonitorStore {
  /** The partitions the watched companies are spread over. */
  watchedShards(): string[];
  /** One page of one shard's watched companies. */
  listWatched(shard: string, request: { limit: number; cursor?: string | undefined }): Promise<Page<WatchTarget>>;
  /** Null when the company is not (any more) on the account's watchlist. */
  getWatch(target: WatchTarget): Promise<WatchState | null>;
  /** Sets the baseline of a row that has none (saving a company); false when the row is gone or has one already. */
  setBaseline(target: WatchTarget, competitors: WatchedCompetitor[], checkedAt: string): Promise<boolean>;
  /**
   * Records a check in one transaction: the row's new baseline, lastCheckedAt, lastRunId and unseen count, every
   * change, the event, and the run's counters; only if the row still exists and `runId` has not checked it yet.
   * False when it had (nothing written).
   */
  recordCheck(target: WatchTarget, check: CheckRecord): Promise<boolean>;
  /** A check whose research failed: the row is marked checked by the run (not lastCheckedAt) and the run counts it failed. */
  recordFailure(target: WatchTarget, runId: string): Promise<boolean>;
  /** Counts a company no longer watched (best effort). */
  countSkipped(runId: string): Promise<void>;
  /** Newest first. */
  listChanges(accountId: string, request: ChangesRequest): Promise<Page<Change>>;
  /** Sets the row's unseenChanges to 0 (no-op for a company not watched). */
  markSeen(target: WatchTarget): Promise<void>;

  /** The companies whose check in run `runId` found changes, with how many of each kind (for the operator). */
  listFound(runId: string): Promise<RunFinding[]>;
  /** Creates the run unless it exists; false when it does (another tick or a retry started it). */
  createRun(run: MonitorRun): Promise<boolean>;
  setRunTotal(runId: string, total: number): Promise<void>;
  getRun(runId: string): Promise<MonitorRun | null>;
  getState(): Promise<MonitorState | null>;
  putState(state: MonitorState): Promise<void>;
}

/** The account's webhook endpoint (one per account). */
export interface WebhookEndpointStore {
  putEndpoint(accountId: string, url: string, at: string): Promise<void>;
  getEndpoint(accountId: string): Promise<{ url: string; updatedAt: string } | null>;
  deleteEndpoint(accountId: string): Promise<void>;
}

export interface WatchEventStore {
  getEvent(accountId: string, eventId: string): Promise<WatchEventRecord | null>;
  recordEventAttempt(accountId: string, eventId: string, attempt: WebhookAttempt, state: WatchEventRecord['state']): Promise<void>;
}

/** One message of the monitor queue: a batch of watched companies of one run. */
export interface MonitorMessage {
  runId: string;
  targets: WatchTarget[];
}

export interface MonitorQueue {
  /** Sends the messages, batched. */
  enqueue(messages: MonitorMessage[]): Promise<void>;
}
