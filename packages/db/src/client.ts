// db: the DynamoDB clients. Endpoints come from the SDK's own settings (AWS_ENDPOINT_URL_DYNAMODB locally).
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, TransactWriteCommand, type QueryCommandInput, type QueryCommandOutput, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { retryOnConflict } from './conditions.js';

/**
 * Bounds on every DynamoDB call, so that a paused or unreachable database fails a request instead of hanging it.
 * In a region, a DynamoDB connection opens in a few milliseconds and an item or transaction call answers in tens of
 * milliseconds; 1 s to connect and 3 s without a byte back are each two orders of magnitude above normal and still
 * short next to the 25 s research deadline. Three attempts (the SDK's standard retry mode, with its jittered backoff,
 * which also retries throttling and transaction conflicts) bound one call at about 3 x (1 + 3) s = 12 s at the very
 * worst, which leaves a synchronous search time to refund its credit before API Gateway's 29 s limit.
 */
export interface DynamoTimeouts {
  connectionTimeoutMs: number;
  requestTimeoutMs: number;
  maxAttempts: number;
}
export const DYNAMO_TIMEOUTS: Readonly<DynamoTimeouts> = { connectionTimeoutMs: 1_000, requestTimeoutMs: 3_000, maxAttempts: 3 };

export interface DynamoClientOptions extends Omit<DynamoDBClientConfig, 'requestHandler' | 'maxAttempts'> {
  timeouts?: Partial<DynamoTimeouts>;
}

/**
 * The one way this project makes a DynamoDB client: with timeouts and bounded retries. Without the SDK's logger
 * middleware, unless a logger is given: with none, it logs nothing, yet still walks every call's input and output
 * through the schemas' sensitive-data filter to build the record it would log (a search's settle and its company rows
 * make that a few hundred items a request).
 */
export function createDynamoClient({ timeouts, ...config }: DynamoClientOptions = {}): DynamoDBClient {
  const { connectionTimeoutMs, requestTimeoutMs, maxAttempts } = { ...DYNAMO_TIMEOUTS, ...timeouts };
  const client = new DynamoDBClient({
    ...config,
    maxAttempts,
    retryMode: 'standard',
    requestHandler: { connectionTimeout: connectionTimeoutMs, requestTimeout: requestTimeoutMs, throwOnRequestTimeout: true },
  });
  if (!config.logger) client.middlewareStack.remove('loggerMiddleware');
  return client;
}

export function createDocumentClient(client: DynamoDBClient = createDynamoClient()): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

export interface TableRef {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/** A TransactWriteItems call, run again while it only lost a race with another transaction on the same items. */
export const transact = (table: TableRef, input: TransactWriteCommandInput) => retryOnConflict(() => table.client.send(new TransactWriteCommand(input)));

/** Every page of a Query, one after another: a partition or an index range read to its end (never a Scan). */
export async function* queryPages(table: TableRef, input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): AsyncGenerator<QueryCommandOutput> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(new QueryCommand({ ...input, TableName: table.tableName, ExclusiveStartKey }));
    yield page;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}
