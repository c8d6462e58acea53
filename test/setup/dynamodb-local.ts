// vitest global setup: one DynamoDB Local (AWS's own engine) for the whole run; each test file makes its own table.
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../packages/local/src/engines.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const dynamodb = await startDynamoDbLocal();
  project.provide('dynamodbEndpoint', dynamodb.endpoint);
  return () => dynamodb.stop();
}
