// test helper: a DynamoDB client on DynamoDB Local whose first calls of chosen operations fail as DynamoDB fails them
// (throttling, a transaction cancelled by a conflict). The failure is an HTTP answer the SDK parses and classifies
// itself, so the SDK's retry strategy and the project's own conflict retries are what is tested.
import { Readable } from 'node:stream';
import { createDocumentClient, createDynamoClient, type TableRef } from '@rivals/db';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../packages/local/src/engines.js';

export type Fault = 'ProvisionedThroughputExceededException' | 'ThrottlingException' | 'TransactionConflict';

interface HttpRequestLike {
  headers: Record<string, string>;
  body?: unknown;
}
interface Handler {
  handle(request: HttpRequestLike, options?: unknown): Promise<{ response: unknown }>;
}

const answer = (fault: Fault, body: string) => {
  const items = (JSON.parse(body) as { TransactItems?: unknown[] }).TransactItems ?? [null];
  const payload =
    fault === 'TransactionConflict'
    ? {
        __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
        Message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
        CancellationReasons: items.map((_, i) => (i === 0 ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' } : { Code: 'None' })),
      }
    : { __type: `com.amazonaws.dynamodb.v20120810#${fault}`, message: 'Rate of requests exceeds the allowed throughput.' };
  return {
    response: {
    statusCode: 400,
    reason: 'Bad Request',
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `fault-${Math.random()}` },
    body: Readable.from([Buffer.from(JSON.stringify(payload))]),
    },
  };
};

/**
 * A table reference whose client answers the next `times` calls of `operation` (e.g. TransactWriteItems) with `fault`
 * before DynamoDB Local sees them, then passes every call through. `calls` counts what was attempted, `failed` what
 * was failed on purpose.
 */
export function faultyTable(table: { endpoint: string; tableName: string }, operation: string) {
  const client = createDynamoClient({ endpoint: table.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  const state = { fault: null as Fault | null, times: 0, calls: 0, failed: 0 };
  const config = client.config as unknown as { requestHandler: Handler };
  const real = config.requestHandler;
  const pass = real.handle.bind(real);
  real.handle = async (request: HttpRequestLike, options?: unknown) => {
    const target = request.headers['x-amz-target'] ?? request.headers['X-Amz-Target'] ?? '';
    if (target.endsWith(`.${operation}`)) {
      state.calls++;
      if (state.fault && state.times > 0) {
        state.times--;
        state.failed++;
        return answer(state.fault, String(request.body ?? '{}'));
      }
    }
    return pass(request, options);
  };
  const ref: TableRef = { client: createDocumentClient(client), tableName: table.tableName };
  return {
    table: ref,
    state,
    /** The next `times` calls of the operation fail with `fault`. */
    failNext(fault: Fault, times: number) {
      Object.assign(state, { fault, times, calls: 0, failed: 0 });
    },
  };
}
