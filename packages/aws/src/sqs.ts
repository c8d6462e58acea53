// aws adapter (secondary): the bulk domain queue, the webhook queue, the aggregate queue and the monitor queue. Domains go out ten to a
// SendMessageBatch, a few batches at a time; a batch entry SQS refuses is sent again, and a send that keeps failing
// throws.
import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { AggregationMessage, AggregationQueue, DeadLetter, DeadLetterQueue, DomainMessage, DomainQueue, MonitorMessage, MonitorQueue, WebhookMessage, WebhookQueue } from '@rivals/core';

const BATCH = 10;
const PARALLEL_BATCHES = 8;

/** Sends messages ten to a SendMessageBatch, a few batches at a time; refused entries are sent again. */
async function sendInBatches(client: SQSClient, queueUrl: string, messages: { id: string; body: string }[]): Promise<void> {
  const batches: { id: string; body: string }[][] = [];
  for (let i = 0; i < messages.length; i += BATCH) batches.push(messages.slice(i, i + BATCH));
  const send = async (batch: { id: string; body: string }[]) => {
    let entries = batch.map((m) => ({ Id: m.id, MessageBody: m.body }));
    for (let attempt = 0; entries.length > 0; attempt++) {
      if (attempt === 5) throw new Error(`SQS refused ${entries.length} message(s)`);
      const { Failed } = await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
      const failed = new Set((Failed ?? []).map((f) => f.Id));
      entries = entries.filter((e) => failed.has(e.Id));
      if (entries.length) await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
    }
  };
  const queue = [...batches];
  await Promise.all(Array.from({ length: PARALLEL_BATCHES }, async () => {
    for (let batch = queue.shift(); batch; batch = queue.shift()) await send(batch);
  }));
}

export class SqsDomainQueue implements DomainQueue {
  constructor(private readonly client: SQSClient, private readonly queueUrl: string) {}

  enqueue(messages: DomainMessage[]): Promise<void> {
    return sendInBatches(this.client, this.queueUrl, messages.map((m) => ({ id: `${m.seq}`, body: JSON.stringify(m) })));
  }
}

/** The monitor queue: each message a batch of watched companies of one run. */
export class SqsMonitorQueue implements MonitorQueue {
  constructor(private readonly client: SQSClient, private readonly queueUrl: string) {}

  enqueue(messages: MonitorMessage[]): Promise<void> {
    return sendInBatches(this.client, this.queueUrl, messages.map((m, i) => ({ id: `${i}`, body: JSON.stringify(m) })));
  }
}

export class SqsWebhookQueue implements WebhookQueue {
  constructor(private readonly client: SQSClient, private readonly queueUrl: string) {}

  async enqueue(message: WebhookMessage, delaySeconds: number): Promise<void> {
    await this.client.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message), DelaySeconds: Math.max(0, Math.min(900, Math.round(delaySeconds))) }));
  }
}

export class SqsAggregationQueue implements AggregationQueue {
  constructor(private readonly client: SQSClient, private readonly queueUrl: string) {}

  async enqueue(message: AggregationMessage): Promise<void> {
    await this.client.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message) }));
  }
}

/** A dead-letter queue, drained by the re-drive: a message is deleted only once the re-drive has dealt with it. */
export class SqsDeadLetterQueue implements DeadLetterQueue {
  readonly name: string;
  constructor(private readonly client: SQSClient, private readonly queueUrl: string) {
    this.name = queueUrl.slice(queueUrl.lastIndexOf('/') + 1);
  }

  async receive(max: number): Promise<DeadLetter[]> {
    // A short visibility: a re-drive that dies before deleting leaves the message for the next pass.
    const { Messages = [] } = await this.client.send(new ReceiveMessageCommand({ QueueUrl: this.queueUrl, MaxNumberOfMessages: Math.min(10, max), WaitTimeSeconds: 0, VisibilityTimeout: 60 }));
    return Messages.map((m) => ({
      body: m.Body ?? '',
      remove: async () => void (await this.client.send(new DeleteMessageCommand({ QueueUrl: this.queueUrl, ReceiptHandle: m.ReceiptHandle! }))),
    }));
  }
}
