// Bundles every function with the local esbuild, as `cdk deploy` would, and checks what each asset holds.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildStage } from '../../infra/stage.js';

const outdir = mkdtempSync(join(tmpdir(), 'rivals-cdk-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('bundling', () => {
  it('bundles every function into an ESM asset; the search asset carries the knowledge base', { timeout: 240_000 }, () => {
    const app = new App({ outdir });
    const { api } = buildStage(app, 'bundle');
    const assembly = app.synth();
    type Fn = { Type: string; Properties: { Code: { S3Key?: string }; Environment?: { Variables?: Record<string, string> } } };
    const template = assembly.getStackByName(api.stackName).template as { Resources: Record<string, Fn> };
    // The project's own functions (ApiFunction sets POWERTOOLS_SERVICE_NAME), not CDK's custom-resource providers.
    const functions = Object.values(template.Resources).filter(
      (r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Code.S3Key && r.Properties.Environment?.Variables?.POWERTOOLS_SERVICE_NAME === 'rivals',
    );
    expect(functions.length).toBeGreaterThanOrEqual(4);
    for (const fn of functions) {
      const dir = join(outdir, `asset.${fn.Properties.Code.S3Key!.replace(/\.zip$/, '')}`);
      expect(existsSync(join(dir, 'index.mjs'))).toBe(true);
      expect(readFileSync(join(dir, 'index.mjs'), 'utf8')).toContain('createRequire');
      if (fn.Properties.Environment?.Variables?.KB_INDEX_PATH) expect(existsSync(join(dir, 'kb-index.json'))).toBe(true);
    }
  });
});
