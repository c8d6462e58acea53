// The app the CLI builds, for the infra tests: cdk.json's context (weak cross-stack references, partition literals,
// every feature flag), a region as the CLI always sets one, and infra/app.ts, the same function infra/bin/app.ts calls.
// Bundling is skipped unless asked for (bundle.test.ts and synth.test.ts bundle every function).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildApp } from '../../infra/app.js';
import { PROJECT_ROOT } from '../../infra/constructs/api-function.js';
import { ROUTES, SCHEDULED, WORKERS } from '../../infra/routes.js';

export const CDK_JSON = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { app: string; context: Record<string, unknown> };

/** Every stage shape the README documents, each in a region (two regions at least). */
export const STAGE_SHAPES: { name: string; stage: string; region: string; context: Record<string, string> }[] = [
  { name: 'dev', stage: 'dev', region: 'us-east-1', context: {} },
  { name: 'prod (the README\'s flags)', stage: 'prod', region: 'us-east-1', context: { waf: 'true', customerManagedKey: 'true', alarmEmail: 'ops@example.com' } },
  {
    name: 'prod with every option',
    stage: 'prod',
    region: 'eu-west-1',
    context: {
      alarmEmail: 'ops@example.com',
      cloudWatchRole: 'true',
      domainName: 'rivals.example.com',
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0b5c9a4e-7d1f-4c8a-9e2b-5f6a7b8c9d0e',
      providers: 'openai,bedrock,brave',
      providerSecret: 'rivals/providers',
      bedrockModelId: 'anthropic.claude-3-haiku-20240307-v1:0',
      uploadOrigins: 'https://rivals.example.com',
      publicBaseUrl: 'https://rivals.example.com',
      backupCopyVaultArn: 'arn:aws:backup:eu-central-1:123456789012:backup-vault:rivals-copies',
      endpointType: 'EDGE',
    },
  },
  { name: 'staging without WAF or key, alarms to the topic only', stage: 'staging', region: 'ap-southeast-2', context: { waf: 'false', alarmEmail: 'none' } },
];

/** The project's functions in a stage: one per route (routes served by another's share it), per scheduled job (jobs run by a
 * worker share its), the authorizer, and the queue workers. */
export const FUNCTION_COUNT = ROUTES.filter((r) => !r.functionOf).length + SCHEDULED.filter((j) => !j.functionOf).length + 1 + Object.keys(WORKERS).length;

/** What the CLI adds to cdk.json's context on `cdk synth` (its defaults: path and asset metadata, version reporting). */
export const CLI_CONTEXT = { 'aws:cdk:enable-path-metadata': true, 'aws:cdk:enable-asset-metadata': true, 'aws:cdk:version-reporting': true };

const outdirs: string[] = [];
/** Removes the synth output directories this module made (call from afterAll). */
export const cleanOutdirs = () => outdirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true }));

export function cliApp(context: Record<string, unknown> = {}, options: { stage?: string; region?: string; account?: string; bundling?: boolean; outdir?: string } = {}) {
  const outdir = options.outdir ?? mkdtempSync(join(tmpdir(), 'rivals-cdk-'));
  if (!options.outdir) outdirs.push(outdir);
  const app = new App({
    outdir,
    context: { ...CDK_JSON.context, ...CLI_CONTEXT, ...(options.bundling ? {} : { 'aws:cdk:bundling-stacks': [] }), ...(options.stage ? { stage: options.stage } : {}), ...context },
  });
  const stage = buildApp(app, { env: { region: options.region ?? 'us-east-1', ...(options.account ? { account: options.account } : {}) } });
  return { app, stage, outdir };
}

/** Templates of the three stacks of a stage, and the API's and workers' as one (the app synthesised once, cdk-nag included). */
export function cliTemplates(context: Record<string, unknown> = {}, options: Parameters<typeof cliApp>[1] = {}) {
  const { stage } = cliApp(context, options);
  const api = Template.fromStack(stage.api);
  const workers = Template.fromStack(stage.workers);
  return { stage, stateful: Template.fromStack(stage.stateful), api, workers, compute: computeTemplate(api, workers) };
}

/**
 * The API and workers' stacks' resources as one template, for what holds of every function, alarm or grant of the
 * stage wherever it lives. Logical ids are unique across the two (CDK's metadata aside), so nothing is lost.
 */
export function computeTemplate(api: Template, workers: Template): Template {
  const a = api.toJSON().Resources as Record<string, unknown>;
  const w = workers.toJSON().Resources as Record<string, unknown>;
  const shared = Object.keys(w).filter((id) => id in a && id !== 'CDKMetadata');
  if (shared.length) throw new Error(`logical ids in both stacks: ${shared.join(', ')}`);
  return Template.fromJSON({ Resources: { ...a, ...w } });
}
