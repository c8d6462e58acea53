// Reliability: a bulk worker process killed (SIGKILL) mid-domain, after the domain was claimed and before any outcome:
// the sweeper re-sends its message through every re-drive window, then refunds that domain exactly once (two sweepers at once, then again), a late
// message afterwards changes nothing, and the ledger audit balances.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { competitor, ScriptedEngine } from '../fakes.js';
import { bulkOn, ManualClock } from '../setup/bulk.js';
import { freshTable } from '../setup/table.js';

const CHILD = fileURLToPath(new URL('./fixtures/bulk-worker-child.ts', import.meta.url));

describe('a bulk worker killed mid-domain', () => {
  it('is refunded by the sweeper, exactly once; the audit balances', async () => {
    // Prepare: a job of two domains; the first researched here, the second handed to a worker process.
    const table = await freshTable();
    const clock = new ManualClock();
    const s = bulkOn(table, new ScriptedEngine(() => ({ targetSource: 'knowledge-base', competitors: [competitor(1)] })), { clock });
    const { id: accountId } = await s.accounts.open('Killed', 5);
    const { jobId } = await s.bulk.upload(accountId, ['good.com\ndoomed.com'], { limit: 5 });
    const [first, second] = s.queue.take();
    expect(await s.worker.process(first!)).toBe('succeeded');
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...process.env, DYNAMODB_ENDPOINT: table.endpoint, TABLE: table.tableName, MESSAGE: JSON.stringify(second) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // Act: kill it once it is researching (the domain claimed, its credit committed), then let the sweeper run late.
    try {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', () => out.includes('researching') && resolve());
        child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before researching`)));
      });
    } finally {
      child.kill('SIGKILL');
    }
    await once(child, 'exit').catch(() => undefined);
    const whileDead = await s.bulk.get(accountId, jobId, { limit: 5 });
    // The sweeper re-sends its message (lost again here) through every re-drive window, then refunds it.
    const redriven: number[] = [];
    for (let window = 0; window < 5; window++) {
      clock.advance(3 * 60_000 * 2 ** window + 60_000); // a minute more: the worker process claimed on its own clock
      redriven.push((await s.sweeper.sweep()).redriven.domains);
    }
    clock.advance(3 * 60_000 * 2 ** 5 + 1_000);
    const [a, b] = await Promise.all([s.sweeper.sweep(), s.sweeper.sweep()]);
    const again = await s.sweeper.sweep();
    const redelivered = await s.worker.process(second!);
    // Assess
    expect(whileDead).toMatchObject({ status: 'running', creditsCharged: 1, creditsRefunded: 0 });
    expect(whileDead.results.find((r) => r.domain === 'doomed.com')?.status).toBe('running');
    expect(redriven).toEqual([1, 1, 1, 1, 1]);
    expect(a.refunded + b.refunded).toBe(1);
    expect(again.refunded).toBe(0);
    expect(redelivered).toBe('skipped');
    const job = await s.bulk.get(accountId, jobId, { limit: 5 });
    expect(job).toMatchObject({ status: 'completed', completedDomains: 1, failedDomains: 1, creditsCharged: 1, creditsRefunded: 1 });
    expect(job.results.find((r) => r.domain === 'doomed.com')).toMatchObject({ status: 'failed', error: 'research_timeout' });
    expect(await s.audit.audit(accountId)).toMatchObject({ consistent: true, balance: 4 });
    console.log(`[reliability] worker killed mid-domain: ${JSON.stringify({ redrivenBeforeRefund: redriven.length, refundedBySweepers: a.refunded + b.refunded, refundedOnRerun: again.refunded, redelivery: redelivered, balance: 4 })}`);
  }, 60_000);
});
