// worker (primary adapter): the monitor queue. Each message is a batch of watched companies of one run, checked one
// after another with the search's engine (docs/monitoring.md); a check records exactly once, so a redelivered message
// records nothing twice. Partial batch responses: only the messages that threw are received again.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { MonitorMessage } from '@rivals/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { traced } from '../shared/observability.js';
import { monitorChecks } from '../shared/research.js';

const processor = new BatchProcessor(EventType.SQS);

const processRecord = async (record: SQSRecord) => monitorChecks().checkBatch(JSON.parse(record.body) as MonitorMessage);

export const handler = traced(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => processPartialResponse(event, processRecord, processor, { context }));
