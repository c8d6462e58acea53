// infra: one deployable stage (dev, prod, ...): the stateful stack and the API stack on top of it, configured from
// CDK context (infra/config.ts).
import type { App } from 'aws-cdk-lib';
import { stageConfig, type StageConfig } from './config.js';
import { ApiStack } from './stacks/api-stack.js';
import { StatefulStack } from './stacks/stateful-stack.js';

export interface Stage {
  config: StageConfig;
  stateful: StatefulStack;
  api: ApiStack;
}

export function buildStage(app: App, stageName?: string): Stage {
  const config = stageConfig(app.node, stageName);
  const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };
  const prefix = `Rivals-${config.stage}`;
  const stateful = new StatefulStack(app, `${prefix}-Stateful`, {
    env,
    retainData: config.retainData,
    customerManagedKey: config.customerManagedKey,
    uploadOrigins: config.uploadOrigins,
  });
  const api = new ApiStack(app, `${prefix}-Api`, {
    env,
    table: stateful.table,
    bulk: { uploads: stateful.uploads, bulkQueue: stateful.bulkQueue, webhookQueue: stateful.webhookQueue, aggregateQueue: stateful.aggregateQueue, monitorQueue: stateful.monitorQueue },
    deadLetterQueues: [stateful.bulkDeadLetterQueue, stateful.aggregateDeadLetterQueue],
    config,
    version: process.env.npm_package_version ?? '0.1.0',
  });
  return { config, stateful, api };
}
