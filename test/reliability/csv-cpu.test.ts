// Reliability: a hostile CSV costs a moment of CPU, not a Lambda's worth. Each file of the hostile corpus (millions of
// columns, one giant field, deep quoting, NULs, mixed line endings, millions of junk rows; 5 MB each) is sent to
// POST /api/bulk/upload on the local runtime (same front and handler as Lambda) while GET /api/health is asked every
// 50 ms: each is refused with its documented error in a moment of the process's CPU (the goal, printed per file, is
// under 1 s), nothing is charged, and health keeps answering meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocal, type LocalService } from '../../packages/local/src/runtime.js';
import { HOSTILE_CSVS } from './fixtures/hostile-csv.js';

let service: LocalService;
beforeAll(async () => {
  process.env.RATE_LIMIT_IP_PER_SECOND = '1000';
  process.env.RATE_LIMIT_IP_BURST = '1000';
  service = await startLocal({ port: 0, devCredits: 100, keyFile: null, scheduleEverySeconds: 3600 });
}, 120_000);
afterAll(async () => {
  delete process.env.RATE_LIMIT_IP_PER_SECOND;
  delete process.env.RATE_LIMIT_IP_BURST;
  await service?.stop();
});

const balance = async () => ((await (await fetch(`${service.url}/api/v1/balance`, { headers: { 'x-api-key': service.apiKey } })).json()) as { creditsRemaining: number }).creditsRemaining;

describe('hostile CSVs against the local runtime', () => {
  it.each(HOSTILE_CSVS)('refuses %s in a moment of CPU, health answering meanwhile', { timeout: 60_000 }, async (name, body, status) => {
    const before = await balance();
    let healthWorst = 0;
    let healthAnswers = 0;
    let running = true;
    const poll = (async () => {
      while (running) {
        const started = performance.now();
        const res = await fetch(`${service.url}/api/health`);
        await res.arrayBuffer();
        healthWorst = Math.max(healthWorst, performance.now() - started);
        if (res.status === 200) healthAnswers++;
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const res = await fetch(`${service.url}/api/bulk/upload`, { method: 'POST', headers: { 'x-api-key': service.apiKey, 'content-type': 'text/csv' }, body });
    const answer = (await res.json()) as { error?: { code: string } };
    const used = process.cpuUsage(cpu);
    const wall = performance.now() - started;
    running = false;
    await poll;
    const cpuMs = Math.round((used.user + used.system) / 1000);
    console.log(`[reliability] upload of "${name}": ${res.status} ${answer.error?.code} in ${Math.round(wall)} ms (${cpuMs} ms CPU); health answered ${healthAnswers} times meanwhile, slowest ${Math.round(healthWorst)} ms`);
    expect(res.status).toBe(status);
    // The whole process's CPU (front, handler, health polls): the file's share is less. The goal is under 1 s and the
    // line above prints the figure; the check leaves a slow CI machine room, and still fails the unbounded parse
    // this guards against (39 s for the 2.6 million columns).
    expect(cpuMs).toBeLessThan(3_000);
    expect(healthAnswers).toBeGreaterThan(0);
    expect(await balance()).toBe(before);
  });
});
