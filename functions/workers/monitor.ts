// worker (primary adapter): watchlist monitoring (docs/monitoring.md), one function for both of its parts.
// - A monitor queue batch: each message a batch of watched companies of one run, checked one after another with the
//   search's engine; a check records exactly once, so a redelivered message records nothing twice. Partial batch
//   responses: only the messages that threw are received again.
// - The hourly schedule (EventBridge in AWS, a timer in the local runtime; any event without Records): starts a run
//   when the knowledge base's version changed (a deploy) or MONITOR_EVERY_HOURS passed, and sends every watched
//   company to the queue. `{ "run": "now" }` starts one at once.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { MonitorMessage } from '@rivals/core';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger, traced } from '../shared/observability.js';
import { monitorChecks } from '../shared/research.js';

const processor = new BatchProcessor(EventType.SQS);

const processRecord = async (record: SQSRecord) => monitorChecks().checkBatch(JSON.parse(record.body) as MonitorMessage);

const tick = async (event: { run?: string }) => {
  const run = event.run === 'now' ? await monitorChecks().startRun('manual') : await monitorChecks().tick();
  if (run) logger.info('monitor run started', { runId: run.id, reason: run.reason, total: run.total ?? 0 });
  return run;
};

export const handler = traced(async (event: SQSEvent | { run?: string } | undefined, context: Context) =>
  event && 'Records' in event ? processPartialResponse(event, processRecord, processor, { context }) : tick(event ?? {}),
);
