// worker (primary adapter): the bulk queue. One message per domain; Powertools' batch processor reports the messages
// that failed (partial batch response) so only those come back; at most BULK_CONCURRENCY domains research at once.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { DomainMessage } from '@rivals/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { limited } from '../shared/limit.js';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger, metrics, traced } from '../shared/observability.js';
import { bulkWorker } from '../shared/research.js';

const processor = new BatchProcessor(EventType.SQS);
const concurrency = Math.max(1, Number(process.env.BULK_CONCURRENCY ?? 5) || 5);

const processRecord = limited(concurrency, async (record: SQSRecord) => {
  const message = JSON.parse(record.body) as DomainMessage;
  const outcome = await bulkWorker().process(message);
  logger.debug('bulk domain', { jobId: message.jobId, seq: message.seq, outcome });
  // Published at once (a queue worker has no HTTP chain to publish on its way out).
  metrics.singleMetric().addMetric('BulkDomains', MetricUnit.Count, 1);
});

export const handler = traced(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
  processPartialResponse(event, processRecord, processor, { context, processInParallel: true }),
);
