// db: the DynamoDB document client. Endpoints come from the SDK's own settings (AWS_ENDPOINT_URL_DYNAMODB locally).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export function createDocumentClient(client = new DynamoDBClient({})): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

export interface TableRef {
  client: DynamoDBDocumentClient;
  tableName: string;
}
