// infra: the stateful resources: the single table (with its daily backups), the upload bucket, the bulk, webhook and
// aggregate queues with their dead-letter queues, and (optionally) the customer-managed key that encrypts them. Kept
// apart from the API stack so that redeploying functions never touches data.
import { Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault } from 'aws-cdk-lib/aws-backup';
import { AttributeType, BillingMode, Table, TableEncryption, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { Key } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption, type QueueProps } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config.js';

export interface StatefulStackProps extends StackProps {
  /** Keep the data when the stack is deleted: deletion protection, retained table, bucket and queues. */
  retainData: boolean;
  /** Encrypt with a key of the account's own (rotated yearly) instead of AWS-managed keys. */
  customerManagedKey?: boolean;
  /** Browser origins allowed to PUT uploads to presigned URLs; none means no CORS at all. */
  uploadOrigins?: string[];
  /** On-demand ceilings and pre-warmed throughput of the table and its index (0 = none). */
  tableThroughput?: StageConfig['table'];
  /** A table restored from a backup, which the stage uses instead of its own (the README's restore runbook). */
  restoredTableName?: string;
  /** Daily AWS Backup of the table, kept 35 days, optionally copied to a vault in another region. */
  backup?: { copyToVaultArn?: string };
}

/** How long the daily backups of the table are kept (and their cross-region copies). */
export const BACKUP_RETENTION_DAYS = 35;

/** How long a raw CSV upload is kept: a job reads it once, when it lands. */
export const UPLOAD_RETENTION_DAYS = 7;

export class StatefulStack extends Stack {
  /** The table the stage uses: the stack's own, or the restored one the configuration names. */
  readonly table: ITable;
  /** The table this stack created (kept, with deletion protection, after a restore points the stage elsewhere). */
  readonly ownTable: Table;
  readonly uploads: Bucket;
  readonly bulkQueue: Queue;
  readonly bulkDeadLetterQueue: Queue;
  readonly webhookQueue: Queue;
  readonly webhookDeadLetterQueue: Queue;
  readonly aggregateQueue: Queue;
  readonly monitorQueue: Queue;
  readonly monitorDeadLetterQueue: Queue;
  readonly aggregateDeadLetterQueue: Queue;
  readonly key?: Key;
  readonly backupPlan?: BackupPlan;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const removalPolicy = props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    if (props.customerManagedKey) {
      this.key = new Key(this, 'DataKey', { description: 'Rivals data: table, uploads, queues', enableKeyRotation: true, removalPolicy });
    }

    const throughput = props.tableThroughput;
    const ceilings = {
      ...(throughput?.maxReadRequestUnits ? { maxReadRequestUnits: throughput.maxReadRequestUnits } : {}),
      ...(throughput?.maxWriteRequestUnits ? { maxWriteRequestUnits: throughput.maxWriteRequestUnits } : {}),
    };
    const warm =
      throughput?.warmReadUnitsPerSecond || throughput?.warmWriteUnitsPerSecond
        ? {
            warmThroughput: {
              ...(throughput.warmReadUnitsPerSecond ? { readUnitsPerSecond: throughput.warmReadUnitsPerSecond } : {}),
              ...(throughput.warmWriteUnitsPerSecond ? { writeUnitsPerSecond: throughput.warmWriteUnitsPerSecond } : {}),
            },
          }
        : {};
    this.ownTable = new Table(this, 'Table', {
      // A runaway client or a bug can cost no more than the ceilings allow (requests over them are throttled).
      ...ceilings,
      // Pre-warmed for a launch or a known peak, so on-demand does not throttle while it scales.
      ...warm,
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: 'ttl',
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.retainData,
      ...(this.key ? { encryption: TableEncryption.CUSTOMER_MANAGED, encryptionKey: this.key } : { encryption: TableEncryption.AWS_MANAGED }),
      removalPolicy,
    });
    this.ownTable.addGlobalSecondaryIndex({
      indexName: 'gsi1',
      partitionKey: { name: 'gsi1pk', type: AttributeType.STRING },
      sortKey: { name: 'gsi1sk', type: AttributeType.STRING },
      ...ceilings,
    });
    this.table = props.restoredTableName
      ? Table.fromTableAttributes(this, 'RestoredTable', { tableName: props.restoredTableName, globalIndexes: ['gsi1'], ...(this.key ? { encryptionKey: this.key } : {}) })
      : this.ownTable;
    if (props.backup) this.backupPlan = this.dailyBackups(removalPolicy, props.backup.copyToVaultArn);

    this.uploads = new Bucket(this, 'Uploads', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      ...(this.key ? { encryption: BucketEncryption.KMS, encryptionKey: this.key, bucketKeyEnabled: true } : { encryption: BucketEncryption.S3_MANAGED }),
      enforceSSL: true,
      // Object Created events reach the upload-landed worker through EventBridge.
      eventBridgeEnabled: true,
      versioned: false,
      lifecycleRules: [{ expiration: Duration.days(UPLOAD_RETENTION_DAYS), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      ...(props.uploadOrigins?.length
        ? { cors: [{ allowedMethods: [HttpMethods.PUT], allowedOrigins: props.uploadOrigins, allowedHeaders: ['content-type', 'content-length'], maxAge: 3600 }] }
        : {}),
      removalPolicy,
      autoDeleteObjects: !props.retainData,
    });

    const queueEncryption = this.key ? { encryption: QueueEncryption.KMS, encryptionMasterKey: this.key } : { encryption: QueueEncryption.SQS_MANAGED };
    /** Every queue: TLS only, encrypted with the stage's key (or SQS's), removed with the stage unless data is kept. */
    const queue = (id: string, queueProps: QueueProps) => new Queue(this, id, { enforceSSL: true, removalPolicy, ...queueEncryption, ...queueProps });
    this.bulkDeadLetterQueue = queue('BulkDeadLetterQueue', { retentionPeriod: Duration.days(14) });
    this.bulkQueue = queue('BulkQueue', {
      // AWS's guidance: at least six times the consuming function's timeout (the bulk domain worker's is 90 s).
      visibilityTimeout: Duration.seconds(540),
      retentionPeriod: Duration.days(4),
      // Five receives: a throttled or briefly failing worker gets room to recover before a domain is dead-lettered.
      deadLetterQueue: { queue: this.bulkDeadLetterQueue, maxReceiveCount: 5 },
    });
    // Webhook deliveries; each failed attempt schedules its own retry, so a message here is one attempt. Their own
    // dead-letter queue: a customer's broken endpoint must not look like (or be re-driven with) failed research.
    this.webhookDeadLetterQueue = queue('WebhookDeadLetterQueue', { retentionPeriod: Duration.days(14) });
    this.webhookQueue = queue('WebhookQueue', {
      visibilityTimeout: Duration.seconds(180),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.webhookDeadLetterQueue, maxReceiveCount: 5 },
    });
    // Watched companies of monitor runs (docs/monitoring.md); six times the monitor worker's 180 s timeout. A check that
    // keeps failing is dropped to the dead-letter queue; the next run checks the company again.
    this.monitorDeadLetterQueue = queue('MonitorDeadLetterQueue', { retentionPeriod: Duration.days(14) });
    this.monitorQueue = queue('MonitorQueue', {
      visibilityTimeout: Duration.seconds(1080),
      retentionPeriod: Duration.days(1),
      deadLetterQueue: { queue: this.monitorDeadLetterQueue, maxReceiveCount: 5 },
    });
    // Settled searches to count in my-companies. A message that keeps failing is harmless to drop: the search's pending
    // item stays, and the account's next GET /api/my-companies counts it.
    this.aggregateDeadLetterQueue = queue('AggregateDeadLetterQueue', { retentionPeriod: Duration.days(14) });
    this.aggregateQueue = queue('AggregateQueue', {
      // Six times the aggregate worker's 30 s timeout.
      visibilityTimeout: Duration.seconds(180),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.aggregateDeadLetterQueue, maxReceiveCount: 5 },
    });
  }

  /** A daily backup of the table at 03:00 UTC into a vault of its own (the stage's key), kept 35 days; copied to another region's vault when configured. */
  private dailyBackups(removalPolicy: RemovalPolicy, copyToVaultArn?: string): BackupPlan {
    const vault = new BackupVault(this, 'BackupVault', { ...(this.key ? { encryptionKey: this.key } : {}), removalPolicy });
    const plan = new BackupPlan(this, 'BackupPlan', { backupVault: vault });
    plan.addRule(
      new BackupPlanRule({
        ruleName: 'daily',
        scheduleExpression: Schedule.cron({ hour: '3', minute: '0' }),
        deleteAfter: Duration.days(BACKUP_RETENTION_DAYS),
        ...(copyToVaultArn
          ? { copyActions: [{ destinationBackupVault: BackupVault.fromBackupVaultArn(this, 'BackupCopyVault', copyToVaultArn), deleteAfter: Duration.days(BACKUP_RETENTION_DAYS) }] }
          : {}),
      }),
    );
    plan.addSelection('Table', { resources: [BackupResource.fromArn(this.table.tableArn)], allowRestores: true });
    return plan;
  }
}
