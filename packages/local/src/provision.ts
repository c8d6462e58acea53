// local runtime: creates the table, bucket and queues that the CDK app declares, read from the synthesised template
// of the stateful stack, so that the local engines hold exactly what AWS would.
import { CreateTableCommand, DynamoDBClient, UpdateTimeToLiveCommand, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { StatefulStack } from '../../../infra/stacks/stateful-stack.js';

type Resource = { Type: string; Properties: Record<string, any> };

export interface ProvisionedResources {
  tableName: string;
  bucketName: string;
  /** Queue URL by logical id (BulkQueue, BulkDeadLetterQueue). */
  queues: Record<string, string>;
}

let declared: Record<string, Resource> | undefined;
export function declaredResources(): Record<string, Resource> {
  if (declared) return declared;
  const outdir = mkdtempSync(join(tmpdir(), 'rivals-synth-'));
  try {
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new StatefulStack(app, 'Local', { retainData: false });
    const template = app.synth().getStackByName(stack.stackName).template as { Resources: Record<string, Resource> };
    return (declared = template.Resources);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** Logical id without CDK's hash suffix: "Table" for "TableCD117FA1". */
const baseName = (logicalId: string) => logicalId.replace(/[0-9A-F]{8}$/, '');

export async function provision(
  endpoints: { dynamodb: string; s3: string; sqs: string },
  prefix: string,
  clientConfig: object,
  options: { tablesOnly?: boolean } = {},
): Promise<ProvisionedResources> {
  const resources = Object.entries(declaredResources()).filter(([, r]) => !options.tablesOnly || r.Type === 'AWS::DynamoDB::Table');
  const result: ProvisionedResources = { tableName: '', bucketName: '', queues: {} };
  const dynamo = new DynamoDBClient({ ...clientConfig, endpoint: endpoints.dynamodb });
  const s3 = new S3Client({ ...clientConfig, endpoint: endpoints.s3, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
  const sqs = new SQSClient({ ...clientConfig, endpoint: endpoints.sqs });
  try {
    for (const [logicalId, resource] of resources.filter(([, r]) => r.Type === 'AWS::DynamoDB::Table')) {
      const p = resource.Properties;
      const tableName = `${prefix}-${baseName(logicalId).toLowerCase()}`;
      const input: CreateTableCommandInput = {
        TableName: tableName,
        KeySchema: p.KeySchema,
        AttributeDefinitions: p.AttributeDefinitions,
        BillingMode: 'PAY_PER_REQUEST',
        GlobalSecondaryIndexes: p.GlobalSecondaryIndexes?.map((g: any) => ({ IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection })),
      };
      try {
        await dynamo.send(new CreateTableCommand(input));
      } catch (error) {
        if ((error as Error).name !== 'ResourceInUseException') throw error; // kept from an earlier run (DATA_DIR)
      }
      if (p.TimeToLiveSpecification?.Enabled) {
        await dynamo
          .send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { Enabled: true, AttributeName: p.TimeToLiveSpecification.AttributeName } }))
          .catch((error: Error) => {
            if (!/already enabled/i.test(error.message)) throw error;
          });
      }
      result.tableName = tableName;
    }
    for (const [logicalId] of resources.filter(([, r]) => r.Type === 'AWS::S3::Bucket')) {
      const bucketName = `${prefix}-${baseName(logicalId).toLowerCase()}`;
      await s3.send(new CreateBucketCommand({ Bucket: bucketName })).catch((error: Error) => {
        if (!/BucketAlready/.test(error.name)) throw error;
      });
      result.bucketName = bucketName;
    }
    // Dead-letter queues first: a queue's redrive policy names its DLQ by ARN.
    const queues = resources.filter(([, r]) => r.Type === 'AWS::SQS::Queue').sort(([, a], [, b]) => Number(!!a.Properties.RedrivePolicy) - Number(!!b.Properties.RedrivePolicy));
    const arnByLogicalId: Record<string, string> = {};
    for (const [logicalId, resource] of queues) {
      const name = baseName(logicalId);
      const attributes: Record<string, string> = {};
      if (resource.Properties.VisibilityTimeout) attributes.VisibilityTimeout = String(resource.Properties.VisibilityTimeout);
      const redrive = resource.Properties.RedrivePolicy;
      if (redrive) {
        const dlq = redrive.deadLetterTargetArn?.['Fn::GetAtt']?.[0];
        attributes.RedrivePolicy = JSON.stringify({ deadLetterTargetArn: arnByLogicalId[dlq], maxReceiveCount: redrive.maxReceiveCount });
      }
      const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `${prefix}-${name}`, Attributes: attributes }));
      const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
      arnByLogicalId[logicalId] = Attributes?.QueueArn ?? '';
      result.queues[name] = QueueUrl!;
    }
  } finally {
    dynamo.destroy();
    s3.destroy();
    sqs.destroy();
  }
  return result;
}

/**
 * The dead-letter queues the sweeper drains and re-drives (DEAD_LETTER_QUEUE_URLS, comma-separated): every one but the
 * monitor's, whose failed checks the next monitor run makes again (docs/monitoring.md).
 */
export const redrivenDeadLetterQueueUrls = (queues: Record<string, string>): string =>
  Object.entries(queues)
    .filter(([name]) => name.endsWith('DeadLetterQueue') && name !== 'MonitorDeadLetterQueue')
    .map(([, url]) => url)
    .join(',');
