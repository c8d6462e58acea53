// db adapter (secondary): Powertools' DynamoDB idempotency store on the single table. Each record gets a partition
// of its own from the one key builder, instead of Powertools' default of one static partition for every record.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { keys, TABLE_ATTRIBUTES } from './keys.js';

export class SingleTableIdempotencyStore extends DynamoDBPersistenceLayer {
  constructor(tableName: string, client: DynamoDBClient) {
    super({
      tableName,
      awsSdkV3Client: client,
      keyAttr: TABLE_ATTRIBUTES.pk,
      sortKeyAttr: TABLE_ATTRIBUTES.sk,
      expiryAttr: TABLE_ATTRIBUTES.ttl,
    });
  }

  protected override getKey(idempotencyKey: string): Record<string, AttributeValue> {
    return marshall(keys.idempotency(idempotencyKey));
  }
}
