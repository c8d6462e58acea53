// `npm run bench:bulk`: a 1,000-domain bulk job through the local runtime (HTTP upload, local SQS, the worker handler,
// DynamoDB Local): wall time, domains per second and the credits accounting. Figures to read, not a pass/fail test;
// written to bench/results/bulk.json for the README's performance table (scripts/bench-readme.ts).
import { performance } from 'node:perf_hooks';
import { normalizeDomain } from '@rivals/core';
import { loadKnowledgeBase } from '@rivals/kb';
import { startLocal } from '@rivals/local';
import { writeResult } from './bench-results.js';
import { updateReadme } from './bench-readme.js';

const DOMAINS = Number(process.env.BENCH_DOMAINS ?? 1000);
const valid = (d: string) => {
  try {
    return normalizeDomain(d);
  } catch {
    return null;
  }
};
const domains = [...new Set(loadKnowledgeBase().entities.map((e) => valid(e.domain)).filter((d): d is string => d !== null))].slice(0, DOMAINS);
const service = await startLocal({ port: 0, devCredits: DOMAINS + 100, keyFile: null, log: (l) => console.error(l) });
try {
  const headers = { 'x-api-key': service.apiKey };
  const balance = async () => ((await (await fetch(`${service.url}/api/v1/balance`, { headers })).json()) as { creditsRemaining: number }).creditsRemaining;
  const before = await balance();
  const csv = ['domain', ...domains, 'not a domain', 'localhost'].join('\n');

  const started = performance.now();
  const upload = await fetch(`${service.url}/api/bulk/upload?limit=10`, { method: 'POST', body: csv, headers: { ...headers, 'content-type': 'text/csv' } });
  const accepted = (await upload.json()) as { jobId: string; totalDomains: number; creditsReserved: number; rejectedRows: unknown[] };
  if (upload.status !== 202) throw new Error(`upload answered ${upload.status}: ${JSON.stringify(accepted)}`);
  const uploaded = performance.now();

  let job: Record<string, unknown>;
  for (;;) {
    job = (await (await fetch(`${service.url}/api/bulk/jobs/${accepted.jobId}?limit=1`, { headers })).json()) as Record<string, unknown>;
    if (job.finishedAt) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const finished = performance.now();
  const after = await balance();
  const seconds = (finished - started) / 1000;

  console.log(`bulk job of ${accepted.totalDomains} domains (${accepted.rejectedRows.length} rows rejected), BULK_CONCURRENCY=${process.env.BULK_CONCURRENCY ?? 4}`);
  console.log(`  upload (parse, write domains, reserve, enqueue)  ${((uploaded - started) / 1000).toFixed(2)} s`);
  console.log(`  wall time to completed                           ${seconds.toFixed(2)} s`);
  console.log(`  throughput                                       ${(accepted.totalDomains / seconds).toFixed(1)} domains/s`);
  console.log('credits');
  console.log(`  reserved ${accepted.creditsReserved}, charged ${job.creditsCharged}, refunded ${job.creditsRefunded}`);
  console.log(`  balance ${before} -> ${after} (spent ${before - after}; charged + refunded = reserved: ${Number(job.creditsCharged) + Number(job.creditsRefunded) === accepted.creditsReserved})`);
  console.log(`  status ${job.status}: ${job.completedDomains} completed, ${job.failedDomains} failed`);
  const charged = Number(job.creditsCharged);
  const refunded = Number(job.creditsRefunded);
  writeResult('bulk', {
    domains: accepted.totalDomains,
    concurrency: Number(process.env.BULK_CONCURRENCY ?? 4),
    uploadSeconds: (uploaded - started) / 1000,
    seconds,
    domainsPerSecond: accepted.totalDomains / seconds,
    status: job.status,
    failedDomains: job.failedDomains,
    credits: { reserved: accepted.creditsReserved, charged, refunded, spent: before - after, accountedFor: charged + refunded === accepted.creditsReserved && before - after === charged },
  });
  console.error(`README: ${updateReadme()}`);
} finally {
  await service.stop();
}
