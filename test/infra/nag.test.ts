// cdk-nag's AwsSolutions rules on both stacks of every stage shape the README documents, built as the CLI builds
// them (cdk.json's context, a region): no finding left unacknowledged, and every acknowledgement says why and matches
// by what it means (infra/nag.ts).
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cleanOutdirs, cliApp, STAGE_SHAPES } from './cli-app.js';

afterAll(cleanOutdirs);

describe.each(STAGE_SHAPES)('cdk-nag AwsSolutions on $name in $region', ({ stage, region, context }) => {
  it('leaves no finding unacknowledged', { timeout: 120_000 }, () => {
    const { app } = cliApp(context, { stage, region });
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

describe('acknowledgements', () => {
  it('match the same findings in an account-specific app (literal account id in ARNs)', { timeout: 120_000 }, () => {
    const { app } = cliApp({ alarmEmail: 'none' }, { stage: 'prod', region: 'eu-central-1', account: '123456789012' });
    const printed: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args) => void printed.push(args.join(' ')));
    try {
      expect(() => app.synth(), printed.join('\n')).not.toThrow();
    } finally {
      spy.mockRestore();
    }
  });
});
