// The README's deploy step, run as a new user runs it: `npm run synth` (the aws-cdk CLI of devDependencies, cdk.json,
// the dashboard build, every function bundled by the local esbuild, cdk-nag). Then the same app built in process with
// cdk.json's context (test/infra/cli-app.ts, which every other infra test uses): its templates must be byte-identical
// to the CLI's, which proves both that the tests check the app the CLI deploys and that two synths of a commit agree.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../infra/constructs/api-function.js';
import { cleanOutdirs, cliApp, FUNCTION_COUNT } from './cli-app.js';

const work = mkdtempSync(join(tmpdir(), 'rivals-synth-'));
const cliOut = join(work, 'cli');
const testOut = join(work, 'in-process');
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  cleanOutdirs();
});

/** The CLI's environment: no credentials (so no account lookup, nothing leaves the machine), a region, no notices. */
function offlineEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(AWS_|CDK_)/.test(name)) delete env[name];
  writeFileSync(join(work, 'aws-config'), '');
  return {
    ...env,
    AWS_REGION: 'us-east-1',
    AWS_CONFIG_FILE: join(work, 'aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(work, 'aws-config'),
    AWS_EC2_METADATA_DISABLED: 'true',
    CDK_DISABLE_CLI_TELEMETRY: 'true',
    CI: 'true',
  };
}

let cli: ReturnType<typeof spawnSync>;
beforeAll(() => {
  cli = spawnSync('npm', ['run', 'synth', '--', '--no-notices', '--output', cliOut], { cwd: PROJECT_ROOT, env: offlineEnv(), encoding: 'utf8', timeout: 600_000 });
}, 620_000);

const templates = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.template.json')).sort();

describe('npm run synth (the README\'s command)', () => {
  it('succeeds from the checked-out tree, cdk-nag included', () => {
    expect(cli.status, `${cli.stdout}\n${cli.stderr}`).toBe(0);
    expect(templates(cliOut)).toEqual(['Rivals-dev-Api.template.json', 'Rivals-dev-Stateful.template.json', 'Rivals-dev-Workers.template.json']);
  });

  it('is byte-identical to the app the tests build, bundled the same way', { timeout: 600_000 }, () => {
    const { app } = cliApp({}, { bundling: true, outdir: testOut });
    app.synth();
    for (const file of templates(cliOut)) expect(readFileSync(join(testOut, file), 'utf8'), file).toBe(readFileSync(join(cliOut, file), 'utf8'));
  });

  it('bundles every function into an ESM asset; the functions that research carry the knowledge base', () => {
    type Fn = { Type: string; Properties: { Code: { S3Key?: string }; Environment?: { Variables?: Record<string, string> } } };
    const resources = ['Api', 'Workers'].flatMap((stack) => Object.values((JSON.parse(readFileSync(join(cliOut, `Rivals-dev-${stack}.template.json`), 'utf8')) as { Resources: Record<string, Fn> }).Resources));
    // The project's own functions (ApiFunction sets POWERTOOLS_SERVICE_NAME), not CDK's custom-resource providers.
    const functions = resources.filter((r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Code.S3Key && r.Properties.Environment?.Variables?.POWERTOOLS_SERVICE_NAME === 'rivals');
    expect(functions.length).toBe(FUNCTION_COUNT);
    let withKnowledgeBase = 0;
    for (const fn of functions) {
      const dir = join(cliOut, `asset.${fn.Properties.Code.S3Key!.replace(/\.zip$/, '')}`);
      expect(existsSync(join(dir, 'index.mjs'))).toBe(true);
      expect(readFileSync(join(dir, 'index.mjs'), 'utf8')).toContain('createRequire');
      if (fn.Properties.Environment?.Variables?.KB_INDEX_PATH) {
        expect(existsSync(join(dir, 'kb-index.json'))).toBe(true);
        withKnowledgeBase++;
      }
    }
    expect(withKnowledgeBase).toBe(5); // search, look-alikes, the bulk domain and monitor workers, and saving a company (it names it, and records its monitoring baseline)
  });
});
