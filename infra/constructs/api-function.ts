// infra: NodejsFunction with the project's defaults (Node 22, ARM64, ESM, source maps, a log group of its own), and
// bindTable, which sets the table's environment variable and its IAM grant together.
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Alias, Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { join } from 'node:path';
import type { StageConfig } from '../config.js';
import { ENV } from '../routes.js';

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');
const KB_INDEX = join(PROJECT_ROOT, 'packages', 'kb', 'dist', 'kb-index.json');
const KB_FILE_NAME = 'kb-index.json';

/** What a function may do with the table: nothing, read one item by key (get), read, or read and write. */
export type TableAccess = 'none' | 'get' | 'read' | 'write';
const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'] as const;
const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'] as const;

export interface ApiFunctionProps extends Omit<NodejsFunctionProps, 'entry'> {
  /** Handler file relative to the project root. */
  entry: string;
  /** Copy the compiled knowledge base into the bundle and point the engine at it. */
  knowledgeBase?: boolean;
  /** Keep the function's log group when the stack is deleted (with the data). */
  retainLogs?: boolean;
  environment?: Record<string, string>;
}

/** The environment every function of a stage starts with: credits, deadline, version, rate limits, public address. */
export const stageEnvironment = (config: StageConfig, version: string): Record<string, string> => ({
  [ENV.freeCredits]: String(config.freeCredits),
  [ENV.deadline]: String(config.researchDeadlineMs),
  [ENV.version]: version,
  [ENV.rateLimitKeyPerSecond]: String(config.rateLimits.keyPerSecond),
  [ENV.rateLimitKeyBurst]: String(config.rateLimits.keyBurst),
  [ENV.rateLimitIpPerSecond]: String(config.rateLimits.ipPerSecond),
  [ENV.rateLimitIpBurst]: String(config.rateLimits.ipBurst),
  ...(config.publicBaseUrl ? { [ENV.publicBaseUrl]: config.publicBaseUrl } : {}),
});

/** The alias every caller invokes (API Gateway, the authorizer, queues, rules): deployments move it, version by version. */
export const LIVE_ALIAS = 'live';

export class ApiFunction extends NodejsFunction {
  /** The published version callers reach; a canary deployment (CodeDeploy) shifts it from the old version to the new. */
  readonly live: Alias;
  /** The function's log group (retention three months). */
  readonly logs: LogGroup;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    const { entry, knowledgeBase, environment, retainLogs, ...rest } = props;
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.THREE_MONTHS, removalPolicy: retainLogs ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY });
    super(scope, id, {
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup,
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      ...rest,
      entry: join(PROJECT_ROOT, entry),
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'rivals',
        ...(knowledgeBase ? { [ENV.kbIndex]: `/var/task/${KB_FILE_NAME}` } : {}),
        ...environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        mainFields: ['module', 'main'],
        // Some dependencies still call require(); give the ESM bundle one.
        banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
        externalModules: ['@aws-sdk/*'],
        ...(knowledgeBase
          ? {
              commandHooks: {
                beforeBundling: () => [],
                beforeInstall: () => [],
                afterBundling: (_input: string, output: string) => [`cp "${KB_INDEX}" "${output}/${KB_FILE_NAME}"`],
              },
            }
          : {}),
      },
    });
    this.logs = logGroup;
    // Every change publishes a version; the old one is deleted once the alias (and a canary) has left it.
    this.live = new Alias(this, 'Live', { aliasName: LIVE_ALIAS, version: this.currentVersion });
  }

  /**
   * Sets the table's environment variable and grants exactly the item actions the access mode needs: never Scan,
   * never a table-level action, the index only when it is queried, and (optionally) only items whose partition key
   * starts with one of `leadingKeys`.
   */
  bindTable(table: ITable, access: TableAccess, options: { indexes?: string[]; leadingKeys?: string[] } = {}): this {
    if (access === 'none') return this;
    this.addEnvironment(ENV.table, table.tableName);
    const actions = access === 'read' ? [...READ_ACTIONS] : access === 'get' ? ['dynamodb:GetItem'] : [...READ_ACTIONS, ...WRITE_ACTIONS];
    const resources = [table.tableArn, ...(options.indexes ?? []).map((index) => `${table.tableArn}/index/${index}`)];
    this.addToRolePolicy(
      new PolicyStatement({
        actions,
        resources,
        ...(options.leadingKeys ? { conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': options.leadingKeys.map((k) => `${k}*`) } } } : {}),
      }),
    );
    // With a customer-managed key, DynamoDB uses it on the caller's behalf: name the actions, no wildcards.
    if (table.encryptionKey) table.encryptionKey.grant(this, 'kms:Decrypt', 'kms:DescribeKey', ...(access === 'write' ? ['kms:Encrypt', 'kms:GenerateDataKey'] : []));
    return this;
  }

  /**
   * Reads and conditional updates of the items whose partition key starts with one of `leadingKeys` only (rate-limit
   * buckets; the authorizer's lastUsedAt), whatever the function's access mode.
   */
  grantItemUpdates(table: ITable, leadingKeys: string[]): this {
    this.addEnvironment(ENV.table, table.tableName);
    this.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': leadingKeys.map((k) => `${k}*`) } },
      }),
    );
    if (table.encryptionKey) table.encryptionKey.grant(this, 'kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey');
    return this;
  }

  /**
   * The engine's optional providers, for a function that researches: which are on, their keys' secret (read at
   * init; only GetSecretValue on that secret), and InvokeModel on the one Bedrock model configured.
   */
  enableProviders(config: Pick<StageConfig, 'providers' | 'providerSecret' | 'bedrockModelId'>): this {
    if (!config.providers.length) return this;
    this.addEnvironment('RIVALS_PROVIDERS', config.providers.join(','));
    if (config.providerSecret) {
      const secret = config.providerSecret.startsWith('arn:')
        ? Secret.fromSecretCompleteArn(this, 'ProviderSecret', config.providerSecret)
        : Secret.fromSecretNameV2(this, 'ProviderSecret', config.providerSecret);
      // The name or ARN as configured: GetSecretValue takes either. grantRead matches the secret's full ARN, whose
      // random six-character suffix a name does not carry (a bare partial ARN in the policy would deny it).
      this.addEnvironment('RIVALS_PROVIDER_SECRET', config.providerSecret);
      secret.grantRead(this);
    }
    if (config.providers.includes('bedrock')) {
      if (!config.bedrockModelId) throw new Error('providers=bedrock needs bedrockModelId');
      this.addEnvironment('BEDROCK_MODEL_ID', config.bedrockModelId);
      this.addToRolePolicy(
        new PolicyStatement({
          actions: ['bedrock:InvokeModel'],
          resources: [Stack.of(this).formatArn({ service: 'bedrock', account: '', resource: 'foundation-model', resourceName: config.bedrockModelId })],
        }),
      );
    }
    return this;
  }
}
