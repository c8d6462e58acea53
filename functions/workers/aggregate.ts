// worker (primary adapter): the aggregate queue. One message per settled search; counting it in the account's company
// rows is exactly-once by the search's pending item (packages/db/src/companies.ts), so a redelivery is a no-op.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { AggregationMessage } from '@rivals/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { services } from '../shared/container.js';
import { traced } from '../shared/observability.js';

const processor = new BatchProcessor(EventType.SQS);

const processRecord = async (record: SQSRecord) => {
  const { accountId, searchId } = JSON.parse(record.body) as AggregationMessage;
  await services().companies.finish(accountId, searchId);
};

export const handler = traced(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
  processPartialResponse(event, processRecord, processor, { context, processInParallel: true }),
);
