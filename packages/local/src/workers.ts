// local runtime: the workers Lambda runs in AWS, run here on the local engines. A poller per queue receives from
// local-aws-sqs (WaitTimeSeconds 0), invokes the same worker handler with an SQSEvent, deletes what succeeded and makes
// the reported batchItemFailures visible again after a short delay; s3rver's object events go to the same upload-landed
// handler the S3 notification reaches in AWS.
import { ChangeMessageVisibilityBatchCommand, DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context, S3Event, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { UPLOADS_PREFIX, WORKERS } from '../../../infra/routes.js';

type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;
type S3Handler = (event: S3Event) => Promise<void>;

export interface LocalWorkerOptions {
  projectRoot: string;
  /** Destroyed when the workers stop. */
  sqs: SQSClient;
  queues: { bulk: string; webhook: string; aggregate: string; monitor: string };
  /** Registers a listener of s3rver's object events. */
  onObjectEvent: (listener: (event: S3Event) => void) => void;
  bucket: string;
  /** Pollers of the bulk queue, each handling one batch at a time (BULK_CONCURRENCY, default 4). */
  concurrency?: number;
  /** Seconds before a failed message is received again (Lambda waits for the visibility timeout; locally this is short). */
  retryAfterSeconds?: number;
  log?: (line: string) => void;
}

export interface LocalWorkers {
  stop(): Promise<void>;
  /** Resolves when the upload-landed handlers started so far have finished. */
  idle(): Promise<void>;
}

const context = (name: string): Context =>
  ({
    functionName: name,
    awsRequestId: `local-${Date.now()}`,
    getRemainingTimeInMillis: () => 90_000,
    callbackWaitsForEmptyEventLoop: false,
  }) as Context;

export function startLocalWorkers(options: LocalWorkerOptions): LocalWorkers {
  const log = options.log ?? (() => undefined);
  const load = async <T>(entry: string) => ((await import(pathToFileURL(join(options.projectRoot, entry)).href)) as { handler: T }).handler;
  let running = true;
  const loops: Promise<void>[] = [];

  const poll = async (queueUrl: string, entry: string, name: string) => {
    const handler = await load<SqsHandler>(entry);
    while (running) {
      try {
        const { Messages = [] } = await options.sqs.send(
          new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, MessageSystemAttributeNames: ['All'] }),
        );
        if (Messages.length === 0) {
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        const event: SQSEvent = {
          Records: Messages.map((m) => ({
            messageId: m.MessageId!,
            receiptHandle: m.ReceiptHandle!,
            body: m.Body ?? '',
            attributes: (m.Attributes ?? {}) as never,
            messageAttributes: {},
            md5OfBody: m.MD5OfBody ?? '',
            eventSource: 'aws:sqs',
            eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${name}`,
            awsRegion: 'us-east-1',
          })),
        };
        let failedIds: Set<string>;
        try {
          const response = await handler(event, context(name));
          failedIds = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        } catch (error) {
          log(`${name} failed: ${(error as Error).stack}`);
          failedIds = new Set(Messages.map((m) => m.MessageId!));
        }
        const done = Messages.filter((m) => !failedIds.has(m.MessageId!));
        const failed = Messages.filter((m) => failedIds.has(m.MessageId!));
        if (done.length) await options.sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
        if (failed.length)
          await options.sqs.send(
            new ChangeMessageVisibilityBatchCommand({
              QueueUrl: queueUrl,
              Entries: failed.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: options.retryAfterSeconds ?? 1 })),
            }),
          );
      } catch (error) {
        if (running) log(`${name} poller: ${(error as Error).message}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  };

  const concurrency = options.concurrency ?? (Number(process.env.BULK_CONCURRENCY) || 4);
  for (let i = 0; i < concurrency; i++) loops.push(poll(options.queues.bulk, WORKERS.bulkDomain.entry, WORKERS.bulkDomain.id));
  loops.push(poll(options.queues.webhook, WORKERS.webhookSender.entry, WORKERS.webhookSender.id));
  loops.push(poll(options.queues.aggregate, WORKERS.aggregate.entry, WORKERS.aggregate.id));
  loops.push(poll(options.queues.monitor, WORKERS.monitor.entry, WORKERS.monitor.id));

  const landing = new Set<Promise<void>>();
  options.onObjectEvent((event) => {
    const records = event.Records.filter((r) => r.eventName.startsWith('ObjectCreated') && r.s3.bucket.name === options.bucket && r.s3.object.key.startsWith(UPLOADS_PREFIX));
    if (!records.length) return;
    const task = load<S3Handler>(WORKERS.uploadLanded.entry)
      .then((handler) => handler({ Records: records }))
      .catch((error: Error) => log(`upload-landed failed: ${error.stack}`))
      .finally(() => landing.delete(task));
    landing.add(task);
  });

  return {
    idle: async () => {
      await Promise.all([...landing]);
    },
    stop: async () => {
      running = false;
      await Promise.all([...loops, ...landing]);
      options.sqs.destroy();
    },
  };
}
