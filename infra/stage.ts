// infra: one deployable stage (dev, prod, ...): the stateful stack, the API stack on top of it, and the workers' stack
// on top of both, configured from CDK context (infra/config.ts).
import { Aspects, type App, type Environment } from 'aws-cdk-lib';
import { HandlerLogGroups } from './constructs/handler-logs.js';
import { stageConfig, type StageConfig } from './config.js';
import { ApiStack } from './stacks/api-stack.js';
import { StatefulStack } from './stacks/stateful-stack.js';
import { WorkersStack } from './stacks/workers-stack.js';

export interface Stage {
  config: StageConfig;
  stateful: StatefulStack;
  api: ApiStack;
  workers: WorkersStack;
}

/** Where the CLI deploys: the account and region of your AWS credentials (the CLI sets CDK_DEFAULT_*). */
export const cliEnvironment = (): Environment => ({ account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION });

export function buildStage(app: App, stageName?: string, env: Environment = cliEnvironment()): Stage {
  const config = stageConfig(app.node, stageName);
  const prefix = `Rivals-${config.stage}`;
  const stateful = new StatefulStack(app, `${prefix}-Stateful`, {
    env,
    terminationProtection: config.terminationProtection,
    retainData: config.retainData,
    customerManagedKey: config.customerManagedKey,
    uploadOrigins: config.uploadOrigins,
    tableThroughput: config.table,
    ...(config.tableName ? { restoredTableName: config.tableName } : {}),
    ...(config.backup ? { backup: config.backupCopyVaultArn ? { copyToVaultArn: config.backupCopyVaultArn } : {} } : {}),
  });
  const bulk = { uploads: stateful.uploads, bulkQueue: stateful.bulkQueue, webhookQueue: stateful.webhookQueue, aggregateQueue: stateful.aggregateQueue, monitorQueue: stateful.monitorQueue };
  const version = process.env.npm_package_version ?? '0.1.0';
  const api = new ApiStack(app, `${prefix}-Api`, { env, terminationProtection: config.terminationProtection, table: stateful.table, bulk, config, version });
  const workers = new WorkersStack(app, `${prefix}-Workers`, {
    env,
    terminationProtection: config.terminationProtection,
    table: stateful.table,
    bulk,
    redrivenDeadLetterQueues: [stateful.bulkDeadLetterQueue, stateful.webhookDeadLetterQueue, stateful.aggregateDeadLetterQueue],
    otherDeadLetterQueues: [stateful.monitorDeadLetterQueue],
    // A bulk job's domains, webhook attempts (a retry waits up to 15 minutes), my-companies counts and monitor checks.
    queues: [
      { name: 'BulkQueue', queue: stateful.bulkQueue, maxAgeMinutes: 60 },
      { name: 'WebhookQueue', queue: stateful.webhookQueue, maxAgeMinutes: 60 },
      { name: 'AggregateQueue', queue: stateful.aggregateQueue, maxAgeMinutes: 15 },
      // A monitor run's companies: a large run drains at about 50 checks at once.
      { name: 'MonitorQueue', queue: stateful.monitorQueue, maxAgeMinutes: 180 },
    ],
    alarmTopic: api.alarmTopic,
    webhookSecretKey: api.webhookSecretKey,
    api: api.api,
    apiFunctions: api.functions,
    config,
    version,
  });
  for (const stack of [stateful, api, workers]) Aspects.of(stack).add(new HandlerLogGroups());
  return { config, stateful, api, workers };
}
