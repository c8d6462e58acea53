// composition root: watchlist monitoring (docs/monitoring.md). The HTTP side (changes, the webhook endpoint) never
// loads the engine; the checks (saving a company, the monitor worker) wire it in through research.ts.
import { SQSClient } from '@aws-sdk/client-sqs';
import { SqsMonitorQueue, SqsWebhookQueue } from '@rivals/aws';
import { MonitorService, systemClock, type MonitorServiceDeps } from '@rivals/core';
import { monitorStore, webhookSecrets, webhookUrlGuard } from './bulk.js';
import { config } from './config.js';
import { lazy, services } from './container.js';
import { logger } from './observability.js';

const sqs = lazy(() => new SQSClient({}));

/** What every monitor service shares; `extra` adds the engine and the queues where they are used. */
export const monitorDeps = (extra: Partial<MonitorServiceDeps> = {}): MonitorServiceDeps => ({
  store: monitorStore(),
  endpoints: monitorStore(),
  secrets: webhookSecrets(),
  clock: systemClock,
  ids: services().ids,
  deadlineMs: config.researchDeadlineMs,
  everyHours: config.monitorEveryHours,
  ...(config.monitorQueueUrl ? { queue: new SqsMonitorQueue(sqs(), config.monitorQueueUrl) } : {}),
  ...(config.webhookQueueUrl ? { webhookQueue: new SqsWebhookQueue(sqs(), config.webhookQueueUrl) } : {}),
  onError: (target, error) => logger.warn('monitor research failed; nothing recorded', { domain: target.domain, error: error as Error }),
  ...extra,
});

/** The HTTP side: changes and the webhook endpoint (its URL checked as bulk webhook URLs are). */
export const monitorApi = lazy(() => new MonitorService(monitorDeps({ webhookUrls: webhookUrlGuard })));
