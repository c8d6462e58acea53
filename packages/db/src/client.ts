// db: the DynamoDB document client. Endpoints come from the SDK's own settings (AWS_ENDPOINT_URL_DYNAMODB locally).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { retryOnConflict } from './conditions.js';

export function createDocumentClient(client = new DynamoDBClient({})): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

export interface TableRef {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/** A TransactWriteItems call, run again while it only lost a race with another transaction on the same items. */
export const transact = (table: TableRef, input: TransactWriteCommandInput) => retryOnConflict(() => table.client.send(new TransactWriteCommand(input)));
