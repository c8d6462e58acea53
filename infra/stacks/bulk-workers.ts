// infra: the bulk research workers: the domain worker on the bulk queue (partial batch responses, bounded concurrency),
// the upload-landed function on the bucket's Object Created events (EventBridge), the webhook sender, and the aggregate
// worker (my-companies counting, fed by every settled search). The scheduled sweeper (routes.ts SCHEDULED) also sweeps
// bulk domains.
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption, type IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { Capacity } from '../config.js';
import { ApiFunction } from '../constructs/api-function.js';
import { ENV, UPLOADS_PREFIX, WORKERS } from '../routes.js';

export interface BulkResources {
  table: ITable;
  uploads: IBucket;
  bulkQueue: IQueue;
  webhookQueue: IQueue;
  aggregateQueue: IQueue;
  monitorQueue: IQueue;
}

/** Environment of every function that touches bulk jobs. */
export const bulkEnvironment = (r: BulkResources) => ({
  [ENV.uploadsBucket]: r.uploads.bucketName,
  [ENV.bulkQueue]: r.bulkQueue.queueUrl,
  [ENV.webhookQueue]: r.webhookQueue.queueUrl,
});

/**
 * The bulk environment and least-privilege grants: send to the bulk and webhook queues; with `uploads`, put (presign)
 * and get objects under the uploads/ prefix. Named actions only, and the key's when the data is encrypted with one.
 */
export function grantBulk(fn: ApiFunction, r: BulkResources, options: { uploads?: boolean } = {}) {
  for (const [k, v] of Object.entries(bulkEnvironment(r))) fn.addEnvironment(k, v);
  fn.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [r.bulkQueue.queueArn, r.webhookQueue.queueArn] }));
  const keys = [r.bulkQueue.encryptionMasterKey, r.webhookQueue.encryptionMasterKey];
  if (options.uploads) {
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject', 's3:GetObject'], resources: [r.uploads.arnForObjects(`${UPLOADS_PREFIX}*`)] }));
    keys.push(r.uploads.encryptionKey);
  }
  const keyArns = [...new Set(keys.filter((k) => k !== undefined).map((k) => k!.keyArn))];
  if (keyArns.length) fn.addToRolePolicy(new PolicyStatement({ actions: ['kms:GenerateDataKey', 'kms:Decrypt'], resources: keyArns }));
}

/** Lets `fn` send to `queue`, named to it in the environment variable `env` (and use the queue's key, if any). */
function grantSend(fn: ApiFunction, env: string, queue: IQueue) {
  fn.addEnvironment(env, queue.queueUrl);
  fn.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }));
  if (queue.encryptionMasterKey) fn.addToRolePolicy(new PolicyStatement({ actions: ['kms:GenerateDataKey', 'kms:Decrypt'], resources: [queue.encryptionMasterKey.keyArn] }));
}

/** The functions that settle searches (the search route, the bulk domain worker) send to the aggregate queue. */
export const grantAggregate = (fn: ApiFunction, queue: IQueue) => grantSend(fn, ENV.aggregateQueue, queue);

/** The functions that start monitor runs send to the monitor queue. */
export const grantMonitor = (fn: ApiFunction, queue: IQueue) => grantSend(fn, ENV.monitorQueue, queue);

/**
 * The sweeper re-drives lost work (packages/core/src/bulk/redrive.ts): it drains the dead-letter queues (receive,
 * delete) and sends again to the bulk, webhook (grantBulk) and aggregate queues.
 */
export function grantRedrive(fn: ApiFunction, deadLetterQueues: IQueue[], aggregateQueue: IQueue) {
  grantAggregate(fn, aggregateQueue);
  fn.addEnvironment(ENV.deadLetterQueues, deadLetterQueues.map((q) => q.queueUrl).join(','));
  fn.addToRolePolicy(new PolicyStatement({ actions: ['sqs:ReceiveMessage', 'sqs:DeleteMessage'], resources: deadLetterQueues.map((q) => q.queueArn) }));
  const keyArns = [...new Set(deadLetterQueues.filter((q) => q.encryptionMasterKey).map((q) => q.encryptionMasterKey!.keyArn))];
  if (keyArns.length) fn.addToRolePolicy(new PolicyStatement({ actions: ['kms:Decrypt'], resources: keyArns }));
}

/** Lets `fn` unseal webhook signing secrets with `key` (its ARN in the environment, GetSecretValue on it). */
export function grantWebhookSecretKey(fn: ApiFunction, key: ISecret) {
  fn.addEnvironment(ENV.webhookSecretKey, key.secretArn);
  key.grantRead(fn);
}

export class BulkWorkers extends Construct {
  readonly functions: Record<string, ApiFunction> = {};
  /** Where Object Created events go when the upload-landed worker cannot take them (EventBridge's own retries spent). */
  readonly deadLetterQueues: IQueue[] = [];

  constructor(scope: Construct, id: string, props: BulkResources & { environment: Record<string, string>; retainLogs: boolean; capacity: Capacity }) {
    super(scope, id);
    const make = (spec: { id: string; entry: string; timeoutSeconds: number; memoryMb?: number }, knowledgeBase: boolean, bulk = true, reservedConcurrency = 0) => {
      const fn = new ApiFunction(this, spec.id, {
        entry: spec.entry,
        knowledgeBase,
        environment: props.environment,
        retainLogs: props.retainLogs,
        timeout: Duration.seconds(spec.timeoutSeconds),
        ...(spec.memoryMb ? { memorySize: spec.memoryMb } : {}),
        ...(reservedConcurrency > 0 ? { reservedConcurrentExecutions: reservedConcurrency } : {}),
      }).bindTable(props.table, 'write');
      if (bulk) grantBulk(fn, props, { uploads: spec.id === WORKERS.uploadLanded.id });
      this.functions[spec.id] = fn;
      return fn;
    };

    const domain = make(WORKERS.bulkDomain, true);
    domain.live.addEventSource(
      new SqsEventSource(props.bulkQueue, {
        batchSize: WORKERS.bulkDomain.batchSize,
        // The configured cap (bulkMaxConcurrency): bulk research never takes more of the account's concurrency.
        maxConcurrency: props.capacity.bulkMaxConcurrency,
        reportBatchItemFailures: true,
      }),
    );
    grantAggregate(domain, props.aggregateQueue);

    const landed = make(WORKERS.uploadLanded, false, true, props.capacity.uploadLandedMaxConcurrency);
    // An upload whose event EventBridge could not deliver (the worker throttled or failing past its retries) is kept
    // here, alarmed on, and can be re-driven: a job never silently stays queued. SQS-managed encryption, which
    // EventBridge can write to without a key policy.
    const landedDeadLetters = new Queue(this, 'UploadLandedDeadLetterQueue', {
      enforceSSL: true,
      encryption: QueueEncryption.SQS_MANAGED,
      retentionPeriod: Duration.days(14),
      removalPolicy: props.retainLogs ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.deadLetterQueues.push(landedDeadLetters);
    // Through EventBridge (the bucket lives in the stateful stack; a bucket notification would make the stacks cyclic).
    new Rule(this, 'UploadLanded', {
      eventPattern: { source: ['aws.s3'], detailType: ['Object Created'], detail: { bucket: { name: [props.uploads.bucketName] }, object: { key: [{ prefix: UPLOADS_PREFIX }] } } },
      targets: [new LambdaFunction(landed.live, { retryAttempts: 3, maxEventAge: Duration.hours(2), deadLetterQueue: landedDeadLetters })],
    });

    const webhooks = make(WORKERS.webhookSender, false);
    webhooks.live.addEventSource(
      new SqsEventSource(props.webhookQueue, { batchSize: WORKERS.webhookSender.batchSize, maxConcurrency: WORKERS.webhookSender.maxConcurrency, reportBatchItemFailures: true }),
    );

    // Watchlist monitoring: checks watched companies with the search's engine and owes webhook events (docs/monitoring.md).
    const monitor = make(WORKERS.monitor, true);
    monitor.live.addEventSource(new SqsEventSource(props.monitorQueue, { batchSize: WORKERS.monitor.batchSize, maxConcurrency: WORKERS.monitor.maxConcurrency, reportBatchItemFailures: true }));

    // Counts settled searches in my-companies: the table only (no bulk grants); consuming the queue is the event
    // source's own grant.
    const aggregate = make(WORKERS.aggregate, false, false);
    aggregate.live.addEventSource(
      new SqsEventSource(props.aggregateQueue, { batchSize: WORKERS.aggregate.batchSize, maxConcurrency: WORKERS.aggregate.maxConcurrency, reportBatchItemFailures: true }),
    );
  }
}
