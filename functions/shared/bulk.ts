// composition root: bulk research wired lazily. The HTTP side (BulkService, WebhookService) never loads the research
// engine; the domain worker (bulkWorker) does, through research.ts.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SQSClient } from '@aws-sdk/client-sqs';
import { S3UploadStore, s3Client, SqsAggregationQueue, SqsDeadLetterQueue, SqsDomainQueue, SqsWebhookQueue } from '@rivals/aws';
import { BULK_MAX_UPLOAD_BYTES } from '@rivals/contracts';
import { AesGcmSealer, BulkService, BulkSweeper, keyFromSecretText, Redriver, systemClock, WebhookService, type WebhookTransport, type WebhookUrlGuard } from '@rivals/core';
import { DynamoBulkJobStore, DynamoMonitorStore, DynamoPendingAggregations, DynamoSearchStore, DynamoWebhookSecretStore } from '@rivals/db';
import { config } from './config.js';
import { lazy, services } from './container.js';
import { logger } from './observability.js';

/** Presigned upload URLs live this long. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;

const sqs = lazy(() => new SQSClient({}));
export const bulkJobs = lazy(() => new DynamoBulkJobStore(services().table, services().ledger));
/** The sealer of webhook signing secrets; its key is read once, on first use (from Secrets Manager in AWS). */
const webhookSealer = lazy(() => {
  const source = config.webhookSecretKey;
  if (!source) return undefined;
  return new AesGcmSealer(async () => {
    if ('base64' in source) return Buffer.from(source.base64, 'base64');
    const client = new SecretsManagerClient({});
    try {
      const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: source.secretArn }));
      return keyFromSecretText(SecretString ?? '');
    } finally {
      client.destroy();
    }
  });
});
export const webhookSecrets = lazy(() => new DynamoWebhookSecretStore(services().table, webhookSealer()));
export const webhookQueue = lazy(() => new SqsWebhookQueue(sqs(), config.webhookQueueUrl));
export const searchStore = lazy(() => new DynamoSearchStore(services().table));
const domainQueue = lazy(() => new SqsDomainQueue(sqs(), config.bulkQueueUrl));
/** Watchlist monitoring's table side (docs/monitoring.md): watched rows, changes, runs, the endpoint and its events. */
export const monitorStore = lazy(() => new DynamoMonitorStore(services().table));

/**
 * Where a settled search (an API search or a bulk domain) is sent to be counted in my-companies. Best effort: a failed
 * send is logged, and the search's pending item makes the next GET /api/my-companies count it.
 */
export const aggregation = lazy(() => ({
  ...(config.aggregateQueueUrl ? { aggregation: new SqsAggregationQueue(sqs(), config.aggregateQueueUrl) } : {}),
  onAggregationError: (searchId: string, error: unknown) => logger.warn('aggregate message not sent; the next my-companies read counts the search', { searchId, error: error as Error }),
}));

/** Where a webhook URL leads, checked when a job or the account's endpoint names it (the delivery checks it again). */
export const webhookUrlGuard: WebhookUrlGuard = { check: async (url) => (await import('@rivals/crawler')).checkWebhookUrl(url) };

export const bulkService = lazy(
  () =>
    new BulkService({
      jobs: bulkJobs(),
      ledger: services().ledger,
      queue: domainQueue(),
      uploads: new S3UploadStore(s3Client(), config.uploadsBucket),
      webhookQueue: webhookQueue(),
      secrets: webhookSecrets(),
      clock: systemClock,
      ids: services().ids,
      maxDomains: config.bulkMaxDomains,
      maxUploadBytes: BULK_MAX_UPLOAD_BYTES,
      uploadUrlTtlSeconds: UPLOAD_URL_TTL_SECONDS,
      // A job's webhook URL is checked where it leads with the delivery's own guard; loaded only when a job names one.
      webhookUrls: webhookUrlGuard,
    }),
);

/** The re-drive of lost and dead-lettered work (the sweeper, `npm run admin -- redrive`, the local runtime's restart). */
export const redriver = lazy(
  () =>
    new Redriver({
      jobs: bulkJobs(),
      searches: searchStore(),
      domainQueue: domainQueue(),
      webhookQueue: webhookQueue(),
      clock: systemClock,
      ids: services().ids,
      policy: config.redrive,
      takeoverAfterMs: config.bulkTakeoverAfterMs,
      aggregation: config.aggregateQueueUrl ? { queue: new SqsAggregationQueue(sqs(), config.aggregateQueueUrl), pending: new DynamoPendingAggregations(services().table) } : undefined,
      deadLetterQueues: config.deadLetterQueueUrls.map((url) => new SqsDeadLetterQueue(sqs(), url)),
    }),
);

export const bulkSweeper = lazy(
  () =>
    new BulkSweeper({
      jobs: bulkJobs(),
      searches: searchStore(),
      webhookQueue: webhookQueue(),
      clock: systemClock,
      ids: services().ids,
      redriver: redriver(),
      uploadGraceMs: 60 * 60_000,
    }),
);

let transport: WebhookTransport | undefined;
/** Test only: replaces the guarded HTTPS transport (see @rivals/crawler createWebhookTransport). */
export const useWebhookTransport = (t: WebhookTransport) => {
  transport = t;
  webhookService.reset();
};

const makeWebhookService = async () => {
  transport ??= (await import('@rivals/crawler')).createWebhookTransport();
  return new WebhookService({ jobs: bulkJobs(), secrets: webhookSecrets(), queue: webhookQueue(), transport, clock: systemClock, watch: { events: monitorStore(), endpoints: monitorStore() } });
};
let webhookServicePromise: Promise<WebhookService> | undefined;
export const webhookService = Object.assign(() => (webhookServicePromise ??= makeWebhookService()), { reset: () => (webhookServicePromise = undefined) });
