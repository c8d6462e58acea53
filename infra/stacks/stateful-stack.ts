// infra: the stateful resources: the single table, the upload bucket and the bulk queue with its dead-letter queue.
// Kept apart from the API stack so that redeploying functions never touches data.
import { Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

export interface StatefulStackProps extends StackProps {
  /** Keep data when the stack is deleted (production). */
  retainData: boolean;
}

export class StatefulStack extends Stack {
  readonly table: Table;
  readonly uploads: Bucket;
  readonly bulkQueue: Queue;
  readonly bulkDeadLetterQueue: Queue;
  readonly webhookQueue: Queue;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const removalPolicy = props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.table = new Table(this, 'Table', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: 'ttl',
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: 'gsi1',
      partitionKey: { name: 'gsi1pk', type: AttributeType.STRING },
      sortKey: { name: 'gsi1sk', type: AttributeType.STRING },
    });

    this.uploads = new Bucket(this, 'Uploads', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // Object Created events reach the upload-landed worker through EventBridge.
      eventBridgeEnabled: true,
      lifecycleRules: [{ expiration: Duration.days(30) }],
      cors: [{ allowedMethods: [HttpMethods.PUT], allowedOrigins: ['*'], allowedHeaders: ['content-type'] }],
      removalPolicy,
      autoDeleteObjects: !props.retainData,
    });

    this.bulkDeadLetterQueue = new Queue(this, 'BulkDeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
    });
    this.bulkQueue = new Queue(this, 'BulkQueue', {
      // Six times the domain worker's timeout (90 s), AWS's guidance for a queue a Lambda function reads.
      visibilityTimeout: Duration.seconds(540),
      encryption: QueueEncryption.SQS_MANAGED,
      deadLetterQueue: { queue: this.bulkDeadLetterQueue, maxReceiveCount: 3 },
    });
    // Webhook deliveries; each failed attempt schedules its own retry, so a message here is one attempt.
    this.webhookQueue = new Queue(this, 'WebhookQueue', {
      visibilityTimeout: Duration.seconds(180),
      encryption: QueueEncryption.SQS_MANAGED,
      deadLetterQueue: { queue: this.bulkDeadLetterQueue, maxReceiveCount: 5 },
    });
  }
}
