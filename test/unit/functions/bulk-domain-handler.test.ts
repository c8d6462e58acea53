// The bulk domain worker's Lambda handler: a message whose outcome could not be recorded is reported in
// batchItemFailures (and only it comes back); at most BULK_CONCURRENCY domains run at once.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context, SQSEvent } from 'aws-lambda';

const processed: number[] = [];
let active = 0;
let peak = 0;
vi.mock('../../../functions/shared/research.js', () => ({
  bulkWorker: () => ({
    process: async ({ seq }: { seq: number }) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 20));
      active--;
      if (seq === 3) throw new Error('DynamoDB unavailable');
      processed.push(seq);
      return 'succeeded';
    },
  }),
}));

const event = (count: number): SQSEvent => ({
  Records: Array.from({ length: count }, (_, i) => ({
    messageId: `m${i + 1}`,
    receiptHandle: `r${i + 1}`,
    body: JSON.stringify({ accountId: 'acct_1', jobId: 'job_1', seq: i + 1 }),
    attributes: {} as never,
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:bulk',
    awsRegion: 'us-east-1',
  })),
});

describe('bulk-domain worker handler', () => {
  beforeEach(() => {
    processed.length = 0;
    peak = 0;
    vi.stubEnv('BULK_CONCURRENCY', '2');
    vi.resetModules();
  });

  it('reports exactly the failed message and bounds concurrency', async () => {
    const { handler } = await import('../../../functions/workers/bulk-domain.js');
    const response = await handler(event(6), {} as Context);
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm3' }]);
    expect(processed.sort()).toEqual([1, 2, 4, 5, 6]);
    expect(peak).toBe(2);
  });

  it('runs under the tracer, as the HTTP chain does (a segment per invocation in Lambda)', async () => {
    const { tracer } = await import('../../../functions/shared/observability.js');
    const asked = vi.spyOn(tracer, 'isTracingEnabled');
    const { handler } = await import('../../../functions/workers/bulk-domain.js');
    await handler(event(1), {} as Context);
    expect(asked).toHaveBeenCalled();
  });
});
