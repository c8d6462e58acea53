// `npm run bench:cold`: each function's cold start, measured on the bundles `cdk deploy` would upload (the same
// esbuild settings, the knowledge base copied beside the search function): bundle size, import time (Lambda's init:
// the search function loads the knowledge base here), heap and RSS after init, and the first invocation where it needs
// no more than DynamoDB Local (health, the OpenAPI document, a search). Figures to read, not a pass/fail test;
// written to bench/results/cold.json for the README's performance table (scripts/bench-readme.ts).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { buildStage } from '../infra/stage.js';
import { startLocal } from '@rivals/local';
import { writeResult } from './bench-results.js';
import { updateReadme } from './bench-readme.js';

/** `--only Search`: measure just these functions (what `npm run bench` shows); the results file is left as it is. */
const only = process.argv.includes('--only') ? new Set(process.argv.slice(process.argv.indexOf('--only') + 1)) : null;

type Fn = { Type: string; Properties: { Code: { S3Key?: string }; Environment?: { Variables?: Record<string, string> } } };

const outdir = mkdtempSync(join(tmpdir(), 'rivals-cold-'));
const local = await startLocal({ port: 0, keyFile: null, log: () => undefined });
try {
  console.log('bundling every function as cdk deploy does ...');
  const app = new App({ outdir, context: { alarmEmail: 'none' } });
  const { api, workers } = buildStage(app, 'bench');
  const assembly = app.synth();
  // Every function of the stage: the API's and the workers'.
  const template = { Resources: Object.assign({}, ...[api, workers].map((stack) => (assembly.getStackByName(stack.stackName).template as { Resources: Record<string, Fn> }).Resources)) as Record<string, Fn> };
  const probe = join(outdir, 'probe.mjs');
  // Runs in a fresh process per function, as a new Lambda container would.
  writeFileSync(
    probe,
    `const [dir, kind, apiKeyAccount] = process.argv.slice(2);
const t0 = performance.now();
const { handler } = await import(dir + '/index.mjs');
const init = performance.now() - t0;
const memory = process.memoryUsage();
let first = null;
const context = { functionName: 'bench', awsRequestId: 'bench', getRemainingTimeInMillis: () => 28000 };
const event = (method, path, body, authorizer) => ({ httpMethod: method, path, resource: path, headers: { 'content-type': 'application/json' }, body,
  requestContext: { requestId: 'bench', identity: { sourceIp: '127.0.0.1' }, ...(authorizer ? { authorizer } : {}) }, queryStringParameters: null, pathParameters: null });
const t1 = performance.now();
if (kind === 'Health') await handler(event('GET', '/api/health'), context);
if (kind === 'OpenApi') await handler(event('GET', '/api/openapi.json'), context);
if (kind === 'Search') {
  const r = await handler(event('POST', '/api/v1/search', JSON.stringify({ domain: 'stripe.com' }), { accountId: apiKeyAccount, keyId: 'key_bench' }), context);
  if (r.statusCode !== 200) throw new Error('search answered ' + r.statusCode + ' ' + r.body);
}
if (['Health', 'OpenApi', 'Search'].includes(kind)) first = performance.now() - t1;
console.log(JSON.stringify({ init, first, heap: memory.heapUsed, rss: memory.rss }));
`,
  );
  const rows: string[][] = [];
  const figures: { function: string; bundleBytes: number; initMs: number | null; firstRequestMs: number | null; heapBytes: number | null; rssBytes: number | null }[] = [];
  for (const [logicalId, fn] of Object.entries(template.Resources)) {
    if (fn.Type !== 'AWS::Lambda::Function' || !fn.Properties.Code.S3Key) continue;
    const kind = logicalId.replace(/Function[0-9A-F]{8}$/, '').replace(/[0-9A-F]{8}$/, '');
    if (only && !only.has(kind)) continue;
    const dir = join(outdir, `asset.${fn.Properties.Code.S3Key.replace(/\.zip$/, '')}`);
    // CDK's own handlers (the dashboard's deployment, bucket clean-up) are not ours to measure.
    if (!existsSync(join(dir, 'index.mjs'))) continue;
    // The Lambda runtime provides the AWS SDK; here it comes from the project's node_modules.
    // Routes that share a handler file share one asset: linked once.
    if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(process.cwd(), 'node_modules'), join(dir, 'node_modules'));
    const size = readdirSync(dir).filter((f) => f !== 'node_modules').reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
    const env = {
      ...process.env,
      // References to other resources (the table, queue URLs) mean nothing here: the local runtime's values, which
      // startLocal put in this process's environment, stand in for them.
      ...Object.fromEntries(Object.entries(fn.Properties.Environment?.Variables ?? {}).filter(([, v]) => typeof v === 'string')),
      TABLE_NAME: local.resources.tableName,
      KB_INDEX_PATH: join(dir, 'kb-index.json'),
      AWS_LAMBDA_FUNCTION_NAME: `bench-${kind}`,
      NODE_OPTIONS: '--enable-source-maps',
      LOG_LEVEL: 'ERROR',
      POWERTOOLS_METRICS_DISABLED: 'true',
    };
    // Asynchronously: the local S3 and SQS engines run in this process and must answer the probe (a search sends its
    // aggregate message to the local queue).
    const run = await new Promise<{ status: number; stdout: string; stderr: string }>((resolveRun) =>
      execFile(process.execPath, [probe, dir, kind, local.accountId], { env, encoding: 'utf8' }, (error, stdout, stderr) =>
        resolveRun({ status: error ? 1 : 0, stdout, stderr }),
      ),
    );
    if (run.status !== 0) {
      if (process.env.BENCH_DEBUG) console.error(run.stderr); // the whole error, when the row's first line is not enough
      rows.push([kind, `${(size / 1024).toFixed(0)} KB`, `failed: ${run.stderr.split("\n").find((l) => /Error/.test(l)) ?? run.stderr.slice(-300)}`]);
      figures.push({ function: kind, bundleBytes: size, initMs: null, firstRequestMs: null, heapBytes: null, rssBytes: null });
      continue;
    }
    const m = JSON.parse(run.stdout.trim().split('\n').pop()!) as { init: number; first: number | null; heap: number; rss: number };
    figures.push({ function: kind, bundleBytes: size, initMs: m.init, firstRequestMs: m.first, heapBytes: m.heap, rssBytes: m.rss });
    rows.push([
      kind,
      `${(size / 1024).toFixed(0)} KB`,
      `${m.init.toFixed(0)} ms`,
      m.first === null ? '–' : `${m.first.toFixed(0)} ms`,
      `${(m.heap / 1048576).toFixed(0)} MB`,
      `${(m.rss / 1048576).toFixed(0)} MB`,
    ]);
  }
  console.log('\n| function | bundle (with its data) | import (init) | first request | heap after init | RSS after init |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows.sort((a, b) => a[0]!.localeCompare(b[0]!))) console.log(`| ${r.join(' | ')} |`);
  if (!only) {
    writeResult('cold', { functions: figures.sort((a, b) => a.function.localeCompare(b.function)) });
    console.error(`README: ${updateReadme()}`);
  }
  console.log(`\nNode ${process.versions.node} on this machine (Lambda runs Node 22 on ARM64; figures there differ). The search's first request includes its DynamoDB calls to DynamoDB Local.`);
} finally {
  await local.stop();
  rmSync(outdir, { recursive: true, force: true });
}
