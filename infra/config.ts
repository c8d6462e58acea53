// infra: the deployment's configuration, from CDK context (`-c name=value` or cdk.json), read and checked in one
// place. The README's configuration table documents every key.
import type { Node } from 'constructs';

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
  /** Hours between scheduled watchlist monitor runs (docs/monitoring.md); default 24. */
  monitorEveryHours: number;
}

const text = (node: Node, name: string): string | undefined => {
  const value = node.tryGetContext(name);
  return value === undefined || value === null || value === '' ? undefined : String(value);
};

const flag = (node: Node, name: string, fallback: boolean): boolean => {
  const value = text(node, name);
  if (value === undefined) return fallback;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new Error(`context ${name} must be true or false, got "${value}"`);
};

const whole = (node: Node, name: string, fallback: number): number => {
  const value = text(node, name);
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`context ${name} must be a whole number, got "${value}"`);
  return n;
};

const list = (node: Node, name: string): string[] => {
  const value = node.tryGetContext(name);
  if (Array.isArray(value)) return value.map(String);
  return (text(node, name) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
};

export function stageConfig(node: Node, stageOverride?: string): StageConfig {
  const stage = stageOverride ?? text(node, 'stage') ?? 'dev';
  if (!/^[a-z][a-z0-9-]{0,20}$/.test(stage)) throw new Error(`stage must be lower-case letters, digits and dashes, got "${stage}"`);
  const endpointType = (text(node, 'endpointType') ?? 'REGIONAL').toUpperCase();
  if (endpointType !== 'REGIONAL' && endpointType !== 'EDGE') throw new Error(`endpointType must be REGIONAL or EDGE, got "${endpointType}"`);
  const domainName = text(node, 'domainName');
  const certificateArn = text(node, 'certificateArn');
  if (Boolean(domainName) !== Boolean(certificateArn)) throw new Error('domainName and certificateArn go together');
  const providers = list(node, 'providers');
  for (const p of providers) if (!['openai', 'bedrock', 'brave'].includes(p)) throw new Error(`unknown provider "${p}" (openai, bedrock, brave)`);
  return {
    stage,
    retainData: flag(node, 'retainData', stage !== 'dev'),
    freeCredits: whole(node, 'freeCredits', 10),
    researchDeadlineMs: whole(node, 'researchDeadlineMs', 25_000),
    rateLimits: {
      keyPerSecond: whole(node, 'rateLimitKeyPerSecond', 10),
      keyBurst: whole(node, 'rateLimitKeyBurst', 20),
      ipPerSecond: whole(node, 'rateLimitIpPerSecond', 20),
      ipBurst: whole(node, 'rateLimitIpBurst', 40),
    },
    ...(domainName ? { domainName, certificateArn: certificateArn! } : {}),
    waf: flag(node, 'waf', false),
    wafRateLimit: whole(node, 'wafRateLimit', 6_000),
    ...(text(node, 'alarmEmail') ? { alarmEmail: text(node, 'alarmEmail')! } : {}),
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
