// worker (primary adapter): an object landed in the upload bucket (S3 Object Created through EventBridge in AWS; an S3
// notification event from s3rver locally). Starts the presigned job whose file it is (parse, reserve, enqueue), or
// fails it with nothing charged. An unexpected failure throws, so that the event is retried.
import type { EventBridgeEvent, S3Event } from 'aws-lambda';
import { bulkService } from '../shared/bulk.js';
import { traced } from '../shared/observability.js';

type ObjectCreated = EventBridgeEvent<'Object Created', { object: { key: string } }>;

const keysOf = (event: S3Event | ObjectCreated): string[] =>
  'Records' in event ? event.Records.map((r) => decodeURIComponent(r.s3.object.key.replace(/\+/g, ' '))) : [event.detail.object.key];

export const handler = traced(async (event: S3Event | ObjectCreated): Promise<void> => {
  for (const key of keysOf(event)) await bulkService().uploadLanded(key);
});
