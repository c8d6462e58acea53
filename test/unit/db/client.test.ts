// The project's DynamoDB clients carry the SDK's logger middleware only when given a logger: without one it logs
// nothing, yet walks every call's input and output through the sensitive-data filter to build a record.
import { describe, expect, it } from 'vitest';
import { createDocumentClient, createDynamoClient } from '@rivals/db';

const loggerMiddlewares = (stack: { identify(): string[] }) => stack.identify().filter((name) => name.startsWith('loggerMiddleware'));

describe('createDynamoClient', () => {
  it('leaves out the logger middleware when no logger is given, on the document client too', () => {
    const client = createDynamoClient({ region: 'us-east-1' });
    expect(loggerMiddlewares(client.middlewareStack)).toEqual([]);
    expect(loggerMiddlewares(createDocumentClient(client).middlewareStack)).toEqual([]);
  });

  it('keeps it when a logger is given', () => {
    const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    expect(loggerMiddlewares(createDynamoClient({ region: 'us-east-1', logger }).middlewareStack)).toHaveLength(1);
  });
});
