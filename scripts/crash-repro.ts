// `npm run crash:repro`: issue 23's reproduction, with the production re-drive defaults. The local runtime (`npm
// start`'s entry) on a DATA_DIR gets a 300-domain bulk job (280 companies the knowledge base knows, 20 that cannot be
// read) with a webhook; it is killed with SIGKILL a few seconds in, then started again on the same DATA_DIR. Prints
// how long the restart took, when the job completed, its credits, the balance and the ledger audit; exits 1 unless the
// job completed within 3 minutes of the restart with 280 charged, 20 refunded, and balance and audit agreeing.
// The runtime runs offline (test/reliability/fixtures/runtime-offline.ts: no DNS; webhooks to a receiver here).
import { mkdtempSync, existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../packages/local/src/engines.js';
import { crashDomains } from '../test/reliability/fixtures/crash-domains.js';
import { ROOT, RuntimeProcess, until } from '../test/reliability/fixtures/runtime-process.js';

const BUDGET_MS = 3 * 60_000;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
// tmpfs when there is one: DynamoDB Local syncs each write of a DATA_DIR to disk, slow on a disk shared with other work.
const dataDir = process.env.REPRO_DATA_DIR ?? mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'rivals-repro-'));
const port = await freePort();
const deliveries: string[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (d: Buffer) => (body += d.toString()));
  req.on('end', () => (deliveries.push((JSON.parse(body) as { data: { job: { jobId: string } } }).data.job.jobId), res.writeHead(204).end()));
}).listen(0, '127.0.0.1');
await new Promise((r) => receiver.once('listening', r));
const env = { DEV_CREDITS: '1000', WEBHOOK_RECEIVER: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` };

let runtime = await RuntimeProcess.start(port, dataDir, env);
let ok = false;
try {
  console.log(`runtime on ${runtime.url}, DATA_DIR ${dataDir}, re-drive defaults (REDRIVE_AFTER_SECONDS ${process.env.REDRIVE_AFTER_SECONDS ?? 180}, REDRIVE_MAX ${process.env.REDRIVE_MAX ?? 5})`);
  await runtime.api('/api/webhook-secret', { method: 'POST' });
  const before = (await runtime.api('/api/v1/balance')).body.creditsRemaining as number;
  const domains = crashDomains(280, 20);
  const upload = await runtime.api(`/api/bulk/upload?limit=10&webhookUrl=${encodeURIComponent('https://hooks.example.com/rivals')}`, {
    method: 'POST',
    body: ['domain', ...domains].join('\n'),
    headers: { 'content-type': 'text/csv' },
  });
  if (upload.status !== 202) throw new Error(`upload answered ${upload.status}: ${upload.text}`);
  const jobId = upload.body.jobId as string;
  const job = async () => (await runtime.api(`/api/bulk/jobs/${jobId}?limit=1`)).body;
  const uploaded = Date.now();
  console.log(`job ${jobId}: ${upload.body.totalDomains} domains, ${upload.body.creditsReserved} credits reserved, balance ${before} -> ${upload.body.creditsRemaining}`);
  const atKill = await until('a few seconds of work', async () => {
    const j = await job();
    return Date.now() - uploaded > 3_000 && j.completedDomains + j.failedDomains > 0 ? j : undefined;
  }, 60_000, 100);
  await runtime.kill();
  console.log(`kill -9 after ${seconds(Date.now() - uploaded)}: status ${atKill.status}, ${atKill.completedDomains + atKill.failedDomains} of ${atKill.totalDomains} done`);

  const restarted = Date.now();
  runtime = await RuntimeProcess.start(port, dataDir, env);
  console.log(`restarted in ${seconds(Date.now() - restarted)}; it said: ${/Resumed[^\n]*/.exec(runtime.output)?.[0] ?? '(nothing resumed)'}`);
  let shown = Date.now();
  const ended = await until('the job to end', async () => {
    const j = await job();
    if (Date.now() - shown > 20_000) (shown = Date.now()), console.log(`  ${seconds(shown - restarted)} after the restart: ${j.completedDomains + j.failedDomains} of ${j.totalDomains} done`);
    return j.finishedAt ? j : undefined;
  }, BUDGET_MS, 500);
  const completedIn = Date.now() - restarted;
  await new Promise((r) => setTimeout(r, 5_000)); // time for the webhook
  const after = (await runtime.api('/api/v1/balance')).body.creditsRemaining as number;
  const { code, stdout } = await runtime.admin('audit', '--account', 'acct_dev');
  const audit = JSON.parse(stdout) as { consistent: boolean; balance: number; byReason: Record<string, number> };
  const webhooks = deliveries.filter((id) => id === jobId).length;
  console.log(`job ${ended.status} ${seconds(completedIn)} after the restart: ${ended.completedDomains} completed, ${ended.failedDomains} failed; credits charged ${ended.creditsCharged}, refunded ${ended.creditsRefunded}`);
  console.log(`balance ${before} -> ${after} (spent ${before - after}); ledger audit: consistent ${audit.consistent}, balance ${audit.balance}, by reason ${JSON.stringify(audit.byReason)} (exit ${code})`);
  console.log(`webhook deliveries for the job: ${webhooks}`);
  ok =
    ended.status === 'completed' &&
    completedIn <= BUDGET_MS &&
    ended.creditsCharged === 280 &&
    ended.creditsRefunded === 20 &&
    before - after === 280 &&
    audit.consistent &&
    audit.balance === after &&
    code === 0 &&
    webhooks === 1;
  console.log(ok ? 'PASS' : 'FAIL');
} finally {
  await runtime.stop();
  receiver.close();
  if (!process.env.REPRO_DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  rmSync(join(ROOT, '.local', String(port)), { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
