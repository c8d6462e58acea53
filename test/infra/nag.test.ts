// cdk-nag's AwsSolutions rules on both stacks of every stage shape: no finding left unacknowledged, and every
// acknowledgement says why (infra/nag.ts).
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { acknowledgeNagFindings } from '../../infra/nag.js';
import { buildStage } from '../../infra/stage.js';

const outdir = mkdtempSync(join(tmpdir(), 'rivals-nag-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe.each([
  ['dev', {}],
  ['prod', { waf: 'true', customerManagedKey: 'true', alarmEmail: 'ops@example.com', cloudWatchRole: 'true' }],
])('cdk-nag AwsSolutions on a %s stage', (stage, context) => {
  // The first synth of a run loads cdk-nag and the whole app: slow on a busy machine.
  it('leaves no finding unacknowledged', { timeout: 120_000 }, () => {
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [], ...context } });
    acknowledgeNagFindings(buildStage(app, stage));
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    // The validation report goes to the console; keep it for the failure message.
    const printed: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args) => void printed.push(args.join(' ')));
    const log = vi.spyOn(console, 'log').mockImplementation((...args) => void printed.push(args.join(' ')));
    try {
      expect(() => app.synth(), printed.join('\n')).not.toThrow();
    } finally {
      spy.mockRestore();
      log.mockRestore();
    }
  });
});
