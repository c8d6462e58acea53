// infra: one deployable stage (dev, prod, ...): the stateful stack and the API stack on top of it.
import type { App } from 'aws-cdk-lib';
import { RATE_LIMIT_DEFAULTS, type RateLimitSettings } from './routes.js';
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
    version: process.env.npm_package_version ?? '0.1.0',
    rateLimits: rateLimitsFromContext(app),
  });
  return { stateful, api };
}

/** `-c rateLimitKeyPerSecond=5` and so on; whole numbers, 0 turns a limit off. */
function rateLimitsFromContext(app: App): RateLimitSettings {
  const settings = { ...RATE_LIMIT_DEFAULTS };
  for (const name of Object.keys(settings) as (keyof RateLimitSettings)[]) {
    const raw = app.node.tryGetContext(`rateLimit${name[0]!.toUpperCase()}${name.slice(1)}`);
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0) throw new Error(`CDK context rateLimit${name[0]!.toUpperCase()}${name.slice(1)} must be a whole number, got "${raw}"`);
    settings[name] = value;
  }
  return settings;
}
