// End to end: the Python SDK's unittest suite (packages/sdk-python/tests) against the local runtime, over HTTP.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocal, type LocalService } from '../../packages/local/src/runtime.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let service: LocalService;
beforeAll(async () => {
  service = await startLocal({ port: 0, devCredits: 200, devApiKey: `sk-live-${'py0'.repeat(11)}`, keyFile: null });
}, 120_000);
afterAll(() => service?.stop());

/** Runs python3 asynchronously: the local runtime answers from this very process, so the event loop must stay free. */
const unittest = () =>
  new Promise<{ code: number; output: string }>((resolve) => {
    const child = execFile(
      'python3',
      ['-m', 'unittest', 'discover', '-s', 'packages/sdk-python/tests', '-t', 'packages/sdk-python/tests', '-v'],
      {
        cwd: root,
        timeout: 240_000,
        maxBuffer: 10 * 1024 * 1024,
        env: { ...process.env, RIVALS_BASE_URL: service.url, RIVALS_API_KEY: service.apiKey, PYTHONDONTWRITEBYTECODE: '1' },
      },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` }),
    );
    child.stdin?.end();
  });

describe('Python SDK', () => {
  it('passes its unittest suite against the local runtime', async () => {
    const { code, output } = await unittest();
    if (code !== 0) console.error(output);
    expect(code, output).toBe(0);
    expect(output).toMatch(/test_a_retry_with_the_same_idempotency_key_is_charged_once .* ok/);
  }, 300_000);
});
