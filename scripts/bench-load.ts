// `npm run bench:load`: the local runtime under load. It starts its own runtime (scripts/bench-load-runtime.ts, in a
// process of its own, on free ports, in memory) and drives it with autocannon: searches of known companies alone, then
// searches, free reads (balance, history, a search by id) and a bulk job, all at once. It prints requests/s, p50/p99/max
// latency and errors per scenario beside the engine's own compute time and the DynamoDB calls each request makes,
// writes bench/results/load.json and regenerates the README's performance table. Figures to read, not a pass/fail test.
//   npm run bench:load -- [--duration 10] [--connections 10] [--bulk-domains 200] [--no-readme]
//   BENCH_CPU_PROF=/tmp/prof npm run bench:load   (a CPU profile of the runtime)
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { normalizeDomain } from '@rivals/core';
import { KnowledgeBaseEngine } from '@rivals/engine';
import { loadKnowledgeBase } from '@rivals/kb';
import { machine, quantile, writeResult } from './bench-results.js';
import { updateReadme } from './bench-readme.js';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    'bulk-domains': { type: 'string', default: '200' },
    'no-readme': { type: 'boolean', default: false },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const BULK_DOMAINS = Number(args['bulk-domains']);
if (!(DURATION > 0 && CONNECTIONS > 0 && BULK_DOMAINS > 0)) throw new Error('--duration, --connections and --bulk-domains take positive numbers');

type Counts = Record<string, number>;
interface Ready {
  url: string;
  apiKey: string;
  bulkApiKey: string;
}
export interface ScenarioFigures {
  name: string;
  connections: number;
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  errors: number;
  non2xx: number;
  dynamoCallsPerRequest: number | null;
}

const valid = (d: string) => {
  try {
    return normalizeDomain(d);
  } catch {
    return null;
  }
};
const kb = loadKnowledgeBase();
const domains = [...new Set(kb.entities.filter((e) => !e.defunct).map((e) => valid(e.domain)).filter((d): d is string => d !== null))];
// A fixed shuffle, so that consecutive searches hit unrelated companies and every run searches the same ones.
const rotation = domains.map((d, i) => ({ d, k: (i * 7919) % domains.length })).sort((a, b) => a.k - b.k).map((x) => x.d);

// The engine's own compute time over the same domains, in this process: what a search would cost with no I/O at all.
const engine = new KnowledgeBaseEngine({ index: kb });
const signal = new AbortController().signal;
for (const domain of rotation.slice(0, 200)) await engine.research({ domain, limit: 100, signal });
const computeMs: number[] = [];
for (const domain of rotation.slice(0, 2000)) {
  const started = performance.now();
  await engine.research({ domain, limit: 100, signal });
  computeMs.push(performance.now() - started);
}
computeMs.sort((a, b) => a - b);

const runtime: ChildProcess = fork(new URL('./bench-load-runtime.ts', import.meta.url), {
  // BENCH_CPU_PROF=<dir>: the runtime writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
  execArgv: ['--import', 'tsx', ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])],
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
// Whatever happens to this process, its runtime goes with it.
process.on('exit', () => runtime.kill());
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

const exited = new Promise<never>((_, reject) => runtime.once('exit', (code) => reject(new Error(`the runtime exited (${code})`))));
exited.catch(() => undefined);
/** Sends `type` (when given) and waits for the runtime's message of type `reply`. */
const ask = <T>(type: string, reply: string) =>
  Promise.race([
    exited,
    new Promise<T>((resolve) => {
      const onMessage = (message: { type: string } & T) => {
        if (message.type !== reply) return;
        runtime.off('message', onMessage);
        resolve(message);
      };
      runtime.on('message', onMessage);
      if (type) runtime.send({ type });
    }),
  ]);
interface Snapshot {
  counts: Counts;
  cpu: { runtimeMs: number; dynamoMs: number | null };
}
const snapshot = () => ask<Snapshot>('counts', 'counts');
const counts = async () => (await snapshot()).counts;
/** What a phase cost the runtime per request: DynamoDB calls (and failed ones), CPU of the runtime and of DynamoDB Local. */
const costPerRequest = (before: Snapshot, after: Snapshot, requests: number) => {
  const calls = delta(after.counts, before.counts);
  const failed = Object.entries(calls).reduce((sum, [op, n]) => (op.endsWith(' failed') ? sum + n : sum), 0);
  const per = (n: number) => Number((n / Math.max(1, requests)).toFixed(2));
  return {
    dynamoCalls: per(total(calls)),
    dynamoCallsFailed: per(failed),
    runtimeCpuMs: per(after.cpu.runtimeMs - before.cpu.runtimeMs),
    dynamoCpuMs: after.cpu.dynamoMs === null || before.cpu.dynamoMs === null ? null : per(after.cpu.dynamoMs - before.cpu.dynamoMs),
  };
};
const delta = (after: Counts, before: Counts): Counts =>
  Object.fromEntries(Object.entries(after).map(([op, n]) => [op, n - (before[op] ?? 0)]).filter(([, n]) => (n as number) > 0));
/** Calls only: the counts also hold `<operation> failed` (and `<operation> bytes` with BENCH_BYTES). */
const total = (c: Counts) => Object.entries(c).reduce((sum, [op, n]) => (op.includes(' ') ? sum : sum + n), 0);

try {
  const ready = await ask<Ready>('', 'ready');
  const headers = { 'content-type': 'application/json', 'x-api-key': ready.apiKey };
  let next = 0;
  const nextDomain = () => rotation[next++ % rotation.length]!;
  const search = async () => {
    const res = await fetch(`${ready.url}/api/v1/search`, { method: 'POST', headers, body: JSON.stringify({ domain: nextDomain(), limit: 100 }) });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`search answered ${res.status}`);
    return res.headers.get('x-search-id')!;
  };
  const get = async (path: string, key = ready.apiKey) => {
    const res = await fetch(`${ready.url}${path}`, { headers: { 'x-api-key': key } });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body)}`);
    return body as Record<string, unknown>;
  };

  // Warm-up (handlers loaded, connections open), which also makes the searches the free reads fetch by id.
  const searchIds: string[] = [];
  for (let i = 0; i < 40; i++) searchIds.push(await search());

  // DynamoDB calls per request, each kind alone and one at a time, so that nothing else is counted.
  const perRequest = async (n: number, call: () => Promise<unknown>) => {
    const before = await counts();
    for (let i = 0; i < n; i++) await call();
    const calls = delta(await counts(), before);
    return { perRequest: total(calls) / n, byOperation: Object.fromEntries(Object.entries(calls).map(([op, c]) => [op, c / n])) };
  };
  const dynamo = {
    search: await perRequest(50, search),
    balance: await perRequest(30, () => get('/api/v1/balance')),
    history: await perRequest(30, () => get('/api/history?limit=20')),
    searchById: await perRequest(30, () => get(`/api/searches/${searchIds[0]}`)),
  };

  const bulkJob = async (count: number, offset: number) => {
    const csv = ['domain', ...rotation.slice(offset, offset + count)].join('\n');
    const started = performance.now();
    const upload = await fetch(`${ready.url}/api/bulk/upload?limit=10`, { method: 'POST', body: csv, headers: { 'x-api-key': ready.bulkApiKey, 'content-type': 'text/csv' } });
    const accepted = (await upload.json()) as { jobId: string; totalDomains: number };
    if (upload.status !== 202) throw new Error(`bulk upload answered ${upload.status}: ${JSON.stringify(accepted)}`);
    let polls = 0;
    let job: Record<string, unknown>;
    for (;;) {
      polls++;
      job = await get(`/api/bulk/jobs/${accepted.jobId}?limit=1`, ready.bulkApiKey);
      if (job.finishedAt) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = (performance.now() - started) / 1000;
    return { jobId: accepted.jobId, domains: accepted.totalDomains, seconds, domainsPerSecond: accepted.totalDomains / seconds, status: job.status as string, failed: Number(job.failedDomains), polls };
  };
  // Calls per bulk domain: a small job alone, less its status polls (each counted as a GET of the job costs).
  {
    const before = await counts();
    const small = await bulkJob(50, 5000);
    const during = total(delta(await counts(), before));
    const poll = await perRequest(5, () => get(`/api/bulk/jobs/${small.jobId}?limit=1`, ready.bulkApiKey));
    Object.assign(dynamo, { bulkDomain: { perRequest: (during - small.polls * poll.perRequest) / small.domains, byOperation: {} }, bulkPoll: poll });
  }

  const cannon = (name: string, requests: autocannon.Request[]) =>
    autocannon({ url: ready.url, connections: CONNECTIONS, duration: DURATION, requests, timeout: 30 }).then((r): ScenarioFigures => ({
      name,
      connections: CONNECTIONS,
      requests: r.requests.total,
      requestsPerSecond: r.requests.total / r.duration,
      latencyMs: { p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max },
      errors: r.errors + r.timeouts,
      non2xx: r.non2xx,
      dynamoCallsPerRequest: null,
    }));
  const searchRequests = (): autocannon.Request[] => [
    { method: 'POST', path: '/api/v1/search', headers, setupRequest: (req) => ({ ...req, body: JSON.stringify({ domain: nextDomain(), limit: 100 }) }) },
  ];
  let read = 0;
  const readRequests: autocannon.Request[] = [
    { method: 'GET', path: '/api/v1/balance', headers: { 'x-api-key': ready.apiKey } },
    {
      method: 'GET',
      path: '/',
      headers: { 'x-api-key': ready.apiKey },
      setupRequest: (req) => ({ ...req, path: read++ % 2 ? '/api/history?limit=20' : `/api/searches/${searchIds[read % searchIds.length]}` }),
    },
  ];

  console.error(`searches alone: ${CONNECTIONS} connections, ${DURATION} s ...`);
  const loadBefore = loadavg()[0]!;
  const aloneBefore = await snapshot();
  const alone = await cannon('search, alone', searchRequests());
  const aloneCost = costPerRequest(aloneBefore, await snapshot(), alone.requests);
  alone.dynamoCallsPerRequest = dynamo.search.perRequest;

  console.error(`searches + free reads + a ${BULK_DOMAINS}-domain bulk job at once ...`);
  const [mixedSearch, mixedReads, bulk] = await Promise.all([
    cannon('search, with reads and bulk', searchRequests()),
    cannon('free reads, with searches and bulk', readRequests),
    bulkJob(BULK_DOMAINS, 0),
  ]);
  mixedSearch.dynamoCallsPerRequest = dynamo.search.perRequest;
  mixedReads.dynamoCallsPerRequest = (dynamo.balance.perRequest + (dynamo.history.perRequest + dynamo.searchById.perRequest) / 2) / 2;

  const figures = {
    options: { durationSeconds: DURATION, connections: CONNECTIONS, bulkDomains: BULK_DOMAINS },
    machine: { ...machine(), loadAverageAtStart: Number(loadBefore.toFixed(2)) },
    engineComputeMs: { searches: computeMs.length, limit: 100, p50: quantile(computeMs, 0.5), p99: quantile(computeMs, 0.99) },
    scenarios: [alone, mixedSearch, mixedReads],
    searchCostUnderLoad: aloneCost,
    bulk: { ...bulk, dynamoCallsPerDomain: (dynamo as unknown as Record<string, { perRequest: number }>).bulkDomain!.perRequest },
    dynamoCalls: dynamo,
  };

  const ms = (n: number) => `${n < 10 ? n.toFixed(1) : n.toFixed(0)} ms`;
  console.log(`\nlocal runtime under load (${CONNECTIONS} connections per scenario, ${DURATION} s; load average ${loadBefore.toFixed(2)} at start, ${machine().cpus} cores)`);
  console.log('| scenario | requests/s | p50 | p99 | max | errors | non-2xx | DynamoDB calls/request |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const s of figures.scenarios)
    console.log(`| ${s.name} | ${s.requestsPerSecond.toFixed(0)} | ${ms(s.latencyMs.p50)} | ${ms(s.latencyMs.p99)} | ${ms(s.latencyMs.max)} | ${s.errors} | ${s.non2xx} | ${s.dynamoCallsPerRequest?.toFixed(1)} |`);
  console.log(`bulk job, with the above: ${bulk.domains} domains in ${bulk.seconds.toFixed(1)} s (${bulk.domainsPerSecond.toFixed(0)} domains/s), ${bulk.status}, ${bulk.failed} failed; ${figures.bulk.dynamoCallsPerDomain.toFixed(1)} DynamoDB calls a domain`);
  console.log(`engine compute per search (in process, limit 100, ${computeMs.length} domains): p50 ${ms(figures.engineComputeMs.p50)}, p99 ${ms(figures.engineComputeMs.p99)}`);
  console.log(`cost of a search under load (searches alone): ${aloneCost.dynamoCalls} DynamoDB calls (${aloneCost.dynamoCallsFailed} failed), CPU ${aloneCost.runtimeCpuMs} ms in the runtime + ${aloneCost.dynamoCpuMs ?? '?'} ms in DynamoDB Local`);
  console.log('DynamoDB calls per request, by operation (each kind alone):');
  for (const [kind, c] of Object.entries(dynamo)) {
    const ops = Object.entries(c.byOperation).map(([op, n]) => `${op} ${(n as number).toFixed(2)}`).join(', ');
    console.log(`  ${kind.padEnd(11)} ${c.perRequest.toFixed(2)}${ops ? `  (${ops})` : ''}`);
  }

  const file = writeResult('load', figures);
  console.error(`\nwrote ${file}`);
  if (!args['no-readme']) console.error(`README: ${updateReadme()}`);
} finally {
  if (runtime.connected) runtime.send({ type: 'stop' });
  await new Promise((r) => (runtime.exitCode === null && runtime.signalCode === null ? runtime.once('exit', r) : r(null)));
}
