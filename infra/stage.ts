// infra: one deployable stage (dev, prod, ...): the stateful stack and the API stack on top of it.
import type { App } from 'aws-cdk-lib';
import { ApiStack } from './stacks/api-stack.js';
import { StatefulStack } from './stacks/stateful-stack.js';

export interface Stage {
  stateful: StatefulStack;
  api: ApiStack;
}

export function buildStage(app: App, stageName: string): Stage {
  const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };
  const prefix = `Rivals-${stageName}`;
  const stateful = new StatefulStack(app, `${prefix}-Stateful`, { env, retainData: stageName === 'prod' });
  const api = new ApiStack(app, `${prefix}-Api`, {
    env,
    table: stateful.table,
    stageName,
    freeCredits: Number(app.node.tryGetContext('freeCredits') ?? 10),
    publicBaseUrl: app.node.tryGetContext('publicBaseUrl') ?? process.env.PUBLIC_BASE_URL,
    version: process.env.npm_package_version ?? '0.1.0',
  });
  return { stateful, api };
}
