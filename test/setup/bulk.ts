// test helper: bulk services on a real table, with in-memory queues and upload store that the tests drive by hand.
import { BulkService, BulkSweeper, BulkWorker, WebhookService, type Clock, type DomainMessage, type ResearchEngine, type UploadStore, type WebhookMessage, type WebhookTransport } from '@rivals/core';
import { DynamoBulkJobStore, DynamoSearchStore, DynamoWebhookSecretStore, type TableRef } from '@rivals/db';
import { tableServices } from '../../packages/local/src/services.js';

export class MemoryQueue<T> {
  messages: { body: T; delaySeconds: number }[] = [];
  failNext = false;
  async enqueue(message: T | T[], delaySeconds = 0) {
    if (this.failNext) throw new Error('queue down');
    for (const body of Array.isArray(message) ? message : [message]) this.messages.push({ body, delaySeconds });
  }
  take(): T[] {
    const taken = this.messages.map((m) => m.body);
    this.messages = [];
    return taken;
  }
}

export class ManualClock implements Clock {
  constructor(public at = Date.now()) {}
  now() {
    return new Date(this.at);
  }
  advance(ms: number) {
    this.at += ms;
  }
}

export const memoryUploads = (objects = new Map<string, Buffer>()): UploadStore & { objects: Map<string, Buffer> } => ({
  objects,
  presignPut: async (key) => `http://uploads.test/${key}?signed`,
  stat: async (key) => (objects.has(key) ? { size: objects.get(key)!.length, etag: `"${objects.get(key)!.length}"` } : null),
  read: async (key) => (async function* () { yield objects.get(key)!; })(),
});

export function bulkOn(table: TableRef, engine: ResearchEngine, options: { clock?: Clock; transport?: WebhookTransport; maxDomains?: number } = {}) {
  const base = tableServices(table);
  const clock = options.clock ?? { now: () => new Date() };
  const jobs = new DynamoBulkJobStore(table, base.ledger);
  const searches = new DynamoSearchStore(table);
  const secrets = new DynamoWebhookSecretStore(table);
  const queue = new MemoryQueue<DomainMessage>();
  const webhookQueue = new MemoryQueue<WebhookMessage>();
  const uploads = memoryUploads();
  const deps = { jobs, ledger: base.ledger, clock, ids: base.ids };
  return {
    ...base,
    jobs,
    searches,
    secrets,
    queue,
    webhookQueue,
    uploads,
    bulk: new BulkService({ ...deps, queue, uploads, webhookQueue, secrets, maxDomains: options.maxDomains ?? 10_000, maxUploadBytes: 50 * 1024 * 1024, uploadUrlTtlSeconds: 900 }),
    worker: new BulkWorker({
      ...deps,
      engine,
      searches,
      webhookQueue,
      deadlineMs: 2_000,
      takeoverAfterMs: 120_000,
    }),
    sweeper: new BulkSweeper({ ...deps, searches, webhookQueue, runningDeadlineMs: 30 * 60_000, pendingDeadlineMs: 6 * 60 * 60_000, uploadGraceMs: 60 * 60_000 }),
    webhooks: new WebhookService({ jobs, secrets, queue: webhookQueue, transport: options.transport ?? { post: async () => ({ status: 200 }) }, clock }),
  };
}
