// infra: the deployment's configuration, read and checked in one place: CDK context (`-c name=value`) over the
// stage's committed file (infra/stages/<stage>.json) over the defaults. The README's configuration table documents
// every key. A stage's file keeps what a production deploy must not lose (waf, customerManagedKey, alarmEmail, ...)
// in the repository, so an upgrade that forgets a `-c` flag cannot silently drop it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Node } from 'constructs';

/** Where the stages' committed configuration lives. */
export const STAGES_DIR = join(import.meta.dirname, 'stages');

export interface StageConfig {
  stage: string;
  /** Keep the table, bucket and logs when the stack is deleted. Default: true for every stage but `dev`. */
  retainData: boolean;
  freeCredits: number;
  researchDeadlineMs: number;
  rateLimits: { keyPerSecond: number; keyBurst: number; ipPerSecond: number; ipBurst: number };
  /** Optional custom domain of the API and dashboard (CloudFront), with its ACM certificate in us-east-1. */
  domainName?: string;
  certificateArn?: string;
  /** An AWS WAF web ACL (per-IP rate rule, AWS managed common rules) in front of the API. */
  waf: boolean;
  /** Per-IP requests per 5 minutes the WAF rate rule allows. */
  wafRateLimit: number;
  /** The dashboard's origin, to make share links absolute (`https://app.example.com`); relative links without it. */
  publicBaseUrl?: string;
  /** Email address subscribed to the alarm topic. */
  alarmEmail?: string;
  /** Origins allowed to PUT uploads to the presigned S3 URLs from a browser. */
  uploadOrigins: string[];
  /** A customer-managed KMS key for the table, bucket, queues and logs (default: AWS-managed encryption). */
  customerManagedKey: boolean;
  /** API Gateway's account-wide CloudWatch role (changes an account setting: opt-in). */
  cloudWatchRole: boolean;
  /** REGIONAL (default) or EDGE. */
  endpointType: 'REGIONAL' | 'EDGE';
  /** Optional candidate providers of the engine (comma list: openai, bedrock, brave); off by default. */
  providers: string[];
  /** Secrets Manager secret (name or ARN) holding the providers' keys as JSON, read at init. */
  providerSecret?: string;
  bedrockModelId?: string;
  /** CloudFormation termination protection on both stacks. Default: every stage but `dev`. */
  terminationProtection: boolean;
  /** Shift traffic to a new version 10% for 5 minutes first (CodeDeploy), rolling back on the alarms. Default: every stage but `dev`. */
  canaryDeployments: boolean;
  capacity: Capacity;
  /** DynamoDB on-demand ceilings and pre-warmed throughput (0 = none). */
  table: { maxReadRequestUnits: number; maxWriteRequestUnits: number; warmReadUnitsPerSecond: number; warmWriteUnitsPerSecond: number };
  /** An AWS Backup plan for the table (daily, 35 days); default: when data is retained. */
  backup: boolean;
  /** A backup vault in another region (its ARN) that every daily backup is copied to. */
  backupCopyVaultArn?: string;
  /** An AWS Budgets monthly cost budget (USD) that notifies the alarm topic (and alarmEmail) at 80% actual and 100% forecast. */
  monthlyBudgetUsd: number;
  /** A table restored from a backup (README "Restoring the table"): the stage uses it instead of the stack's own. */
  tableName?: string;
  /** Bumped after the origin secret is rotated, so that CloudFront reads its new value on the next deploy. */
  originSecretVersion: number;
  /** Hours between scheduled watchlist monitor runs (docs/monitoring.md); default 24. */
  monitorEveryHours: number;
}

/** Lambda concurrency (see the README's sizing table); 0 = no reservation / no cap. */
export interface Capacity {
  /** Reserved for the authorizer alone: searches and bulk workers can never take it. */
  authorizerReservedConcurrency: number;
  /** Most concurrent searches (reserved concurrency of the search function: a cap and a guarantee). */
  searchMaxConcurrency: number;
  /** Most concurrent bulk domain workers (the SQS event source's maximum concurrency; 2 or more). */
  bulkMaxConcurrency: number;
  /** Most concurrent upload-landed workers (reserved concurrency). */
  uploadLandedMaxConcurrency: number;
  /** The account's Lambda concurrency quota in the region: reservations must leave 100 of it unreserved. */
  accountConcurrency: number;
}

/** A configuration source: CDK context first, then the stage's file. */
interface Source {
  get(name: string): unknown;
}

const text = (node: Source, name: string): string | undefined => {
  const value = node.get(name);
  return value === undefined || value === null || value === '' ? undefined : String(value);
};

const flag = (node: Source, name: string, fallback: boolean): boolean => {
  const value = text(node, name);
  if (value === undefined) return fallback;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new Error(`context ${name} must be true or false, got "${value}"`);
};

const whole = (node: Source, name: string, fallback: number): number => {
  const value = text(node, name);
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`context ${name} must be a whole number, got "${value}"`);
  return n;
};

const list = (node: Source, name: string): string[] => {
  const value = node.get(name);
  if (Array.isArray(value)) return value.map(String);
  return (text(node, name) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
};

/** Every key a stage's file may set (the README's configuration table); anything else is a typo, refused. */
export const CONFIG_KEYS = [
  'retainData', 'freeCredits', 'researchDeadlineMs', 'rateLimitKeyPerSecond', 'rateLimitKeyBurst', 'rateLimitIpPerSecond', 'rateLimitIpBurst',
  'domainName', 'certificateArn', 'waf', 'wafRateLimit', 'publicBaseUrl', 'alarmEmail', 'uploadOrigins', 'customerManagedKey', 'cloudWatchRole',
  'endpointType', 'providers', 'providerSecret', 'bedrockModelId', 'terminationProtection', 'canaryDeployments',
  'authorizerReservedConcurrency', 'searchMaxConcurrency', 'bulkMaxConcurrency', 'uploadLandedMaxConcurrency', 'accountConcurrency',
  'tableMaxReadRequestUnits', 'tableMaxWriteRequestUnits', 'tableWarmReadUnitsPerSecond', 'tableWarmWriteUnitsPerSecond',
  'backup', 'backupCopyVaultArn', 'monthlyBudgetUsd', 'tableName', 'originSecretVersion',
] as const;

/** The stage's committed file, infra/stages/<stage>.json, if there is one. */
export function stageFile(stage: string, dir = STAGES_DIR): Record<string, unknown> {
  const path = join(dir, `${stage}.json`);
  if (!existsSync(path)) return {};
  const values = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const unknown = Object.keys(values).filter((k) => !(CONFIG_KEYS as readonly string[]).includes(k));
  if (unknown.length) throw new Error(`${path}: unknown key(s) ${unknown.join(', ')} (see the README's configuration table)`);
  return values;
}

export function stageConfig(node: Node, stageOverride?: string): StageConfig {
  const stage = stageOverride ?? (node.tryGetContext('stage') as string | undefined) ?? 'dev';
  if (!/^[a-z][a-z0-9-]{0,20}$/.test(stage)) throw new Error(`stage must be lower-case letters, digits and dashes, got "${stage}"`);
  const file = stageFile(stage);
  return readConfig(stage, { get: (name) => node.tryGetContext(name) ?? file[name] });
}

function readConfig(stage: string, node: Source): StageConfig {
  const endpointType = (text(node, 'endpointType') ?? 'REGIONAL').toUpperCase();
  if (endpointType !== 'REGIONAL' && endpointType !== 'EDGE') throw new Error(`endpointType must be REGIONAL or EDGE, got "${endpointType}"`);
  const domainName = text(node, 'domainName');
  const certificateArn = text(node, 'certificateArn');
  if (Boolean(domainName) !== Boolean(certificateArn)) throw new Error('domainName and certificateArn go together');
  const providers = list(node, 'providers');
  for (const p of providers) if (!['openai', 'bedrock', 'brave'].includes(p)) throw new Error(`unknown provider "${p}" (openai, bedrock, brave)`);
  const production = stage !== 'dev';
  // Outside dev, alarms must reach someone: an address, or an explicit `none` (the topic only).
  const alarmEmail = text(node, 'alarmEmail');
  if (production && !alarmEmail)
    throw new Error(`stage ${stage} needs alarmEmail (in infra/stages/${stage}.json or -c alarmEmail=...); -c alarmEmail=none sends alarms to the SNS topic only`);
  const capacity: Capacity = {
    authorizerReservedConcurrency: whole(node, 'authorizerReservedConcurrency', production ? 20 : 0),
    searchMaxConcurrency: whole(node, 'searchMaxConcurrency', production ? 100 : 0),
    bulkMaxConcurrency: whole(node, 'bulkMaxConcurrency', 10),
    uploadLandedMaxConcurrency: whole(node, 'uploadLandedMaxConcurrency', production ? 5 : 0),
    accountConcurrency: whole(node, 'accountConcurrency', 1000),
  };
  if (capacity.bulkMaxConcurrency < 2) throw new Error('bulkMaxConcurrency must be 2 or more (the SQS event source\'s minimum)');
  const reserved = capacity.authorizerReservedConcurrency + capacity.searchMaxConcurrency + capacity.uploadLandedMaxConcurrency;
  if (reserved > capacity.accountConcurrency - 100)
    throw new Error(`reserved concurrency ${reserved} leaves less than the 100 unreserved that Lambda requires of accountConcurrency ${capacity.accountConcurrency}`);
  const backupCopyVaultArn = text(node, 'backupCopyVaultArn');
  if (backupCopyVaultArn && !/^arn:[^:]+:backup:[a-z0-9-]+:\d{12}:backup-vault:.+$/.test(backupCopyVaultArn)) throw new Error(`backupCopyVaultArn must be a backup vault ARN, got "${backupCopyVaultArn}"`);
  const retainData = flag(node, 'retainData', production);
  return {
    stage,
    retainData,
    terminationProtection: flag(node, 'terminationProtection', production),
    canaryDeployments: flag(node, 'canaryDeployments', production),
    capacity,
    table: {
      maxReadRequestUnits: whole(node, 'tableMaxReadRequestUnits', 0),
      maxWriteRequestUnits: whole(node, 'tableMaxWriteRequestUnits', 0),
      warmReadUnitsPerSecond: whole(node, 'tableWarmReadUnitsPerSecond', 0),
      warmWriteUnitsPerSecond: whole(node, 'tableWarmWriteUnitsPerSecond', 0),
    },
    backup: flag(node, 'backup', retainData),
    ...(backupCopyVaultArn ? { backupCopyVaultArn } : {}),
    monthlyBudgetUsd: whole(node, 'monthlyBudgetUsd', 0),
    originSecretVersion: whole(node, 'originSecretVersion', 1),
    ...(text(node, 'tableName') ? { tableName: text(node, 'tableName')! } : {}),
    freeCredits: whole(node, 'freeCredits', 10),
    researchDeadlineMs: whole(node, 'researchDeadlineMs', 25_000),
    rateLimits: {
      keyPerSecond: whole(node, 'rateLimitKeyPerSecond', 10),
      keyBurst: whole(node, 'rateLimitKeyBurst', 20),
      ipPerSecond: whole(node, 'rateLimitIpPerSecond', 20),
      ipBurst: whole(node, 'rateLimitIpBurst', 40),
    },
    ...(domainName ? { domainName, certificateArn: certificateArn! } : {}),
    waf: flag(node, 'waf', production),
    wafRateLimit: whole(node, 'wafRateLimit', 6_000),
    ...(alarmEmail && alarmEmail !== 'none' ? { alarmEmail } : {}),
    ...(text(node, 'publicBaseUrl') ? { publicBaseUrl: text(node, 'publicBaseUrl')! } : {}),
    uploadOrigins: list(node, 'uploadOrigins'),
    customerManagedKey: flag(node, 'customerManagedKey', false),
    cloudWatchRole: flag(node, 'cloudWatchRole', false),
    endpointType,
    providers,
    ...(text(node, 'providerSecret') ? { providerSecret: text(node, 'providerSecret')! } : {}),
    ...(text(node, 'bedrockModelId') ? { bedrockModelId: text(node, 'bedrockModelId')! } : {}),
    monitorEveryHours: Math.max(1, whole(node, 'monitorEveryHours', 24)),
  };
}
