// worker (primary adapter): the webhook queue. One delivery attempt per message; a failed attempt schedules the next
// (exponential backoff, 24 hours) itself, so the message is done either way; only an unexpected error retries it.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { WebhookMessage } from '@rivals/core';
import { traced } from '../shared/observability.js';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { webhookService } from '../shared/bulk.js';

const processor = new BatchProcessor(EventType.SQS);

const processRecord = async (record: SQSRecord) => (await webhookService()).deliver(JSON.parse(record.body) as WebhookMessage);

export const handler = traced(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
  processPartialResponse(event, processRecord, processor, { context, processInParallel: true }),
);
