// `npm run bench`: engine compute time per search over every knowledge-base domain (p50, p99, max), index load time
// and memory, the local API's latency over HTTP, and the search function's cold start. Figures to read, not a
// pass/fail test; written to bench/results/engine.json for the README's performance table (scripts/bench-readme.ts).
import { performance } from 'node:perf_hooks';
import { KnowledgeBaseEngine } from '@rivals/engine';
import { knowledgeBasePath, loadKnowledgeBase } from '@rivals/kb';
import { raiseRateLimits, startLocal } from '@rivals/local';
import { DynamoDiscoveredStore, type TableRef } from '@rivals/db';
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { quantile, writeResult } from './bench-results.js';
import { updateReadme } from './bench-readme.js';

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

global.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const loadStarted = performance.now();
const index = loadKnowledgeBase();
const parsed = performance.now();
const engine = new KnowledgeBaseEngine({ index });
const loaded = performance.now();
global.gc?.();
const heapAfter = process.memoryUsage().heapUsed;

console.log('knowledge base');
console.log(`  file            ${mb(statSync(knowledgeBasePath()).size)} (${index.entities.length} entries, ${index.relations.length} relations)`);
console.log(`  load            ${fmt(loaded - loadStarted)} (JSON.parse ${fmt(parsed - loadStarted)}, model ${fmt(loaded - parsed)})`);
console.log(`  heap            ${mb(heapAfter - heapBefore)} (rss ${mb(process.memoryUsage().rss)})`);

const domains = [...new Set(index.entities.map((e) => e.domain))];
const signal = new AbortController().signal;
for (const d of domains.slice(0, 50)) await engine.research({ domain: d, limit: 100, signal }); // warm-up
const times: number[] = [];
let rows = 0;
for (const domain of domains) {
  const started = performance.now();
  const { competitors } = await engine.research({ domain, limit: 100, signal });
  times.push(performance.now() - started);
  rows += competitors.length;
}
times.sort((a, b) => a - b);
console.log(`engine compute, limit 100, every knowledge-base domain (${domains.length})`);
console.log(`  p50 ${fmt(quantile(times, 0.5))}  p99 ${fmt(quantile(times, 0.99))}  max ${fmt(times[times.length - 1] ?? 0)}  mean rows ${(rows / domains.length).toFixed(1)}`);

const samples = Number(process.env.BENCH_API_SAMPLES ?? 300);
// Sequential calls from one key go past the documented 10 a second: this private service gets higher limits.
raiseRateLimits();
const service = await startLocal({ port: 0, devCredits: samples + 100, keyFile: null });
try {
  const latencies: number[] = [];
  for (let i = 0; i < samples; i++) {
    const domain = domains[(i * 7919) % domains.length]!;
    const started = performance.now();
    const res = await fetch(`${service.url}/api/v1/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': service.apiKey },
      body: JSON.stringify({ domain, limit: 100 }),
    });
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  console.log(`local API, POST /api/v1/search limit 100, ${samples} known domains, sequential (authorizer + DynamoDB Local transactions + engine)`);
  console.log(`  p50 ${fmt(quantile(latencies, 0.5))}  p95 ${fmt(quantile(latencies, 0.95))}  p99 ${fmt(quantile(latencies, 0.99))}`);

  const layer = await discoveredLayerCost(service.table, samples);
  writeResult('engine', {
    knowledgeBase: { bytes: statSync(knowledgeBasePath()).size, entries: index.entities.length, relations: index.relations.length },
    indexLoadMs: { total: loaded - loadStarted, parse: parsed - loadStarted, model: loaded - parsed },
    indexHeapBytes: heapAfter - heapBefore,
    engineComputeMs: { domains: domains.length, limit: 100, p50: quantile(times, 0.5), p99: quantile(times, 0.99), max: times[times.length - 1] ?? 0 },
    sequentialSearchMs: { samples, p50: quantile(latencies, 0.5), p95: quantile(latencies, 0.95), p99: quantile(latencies, 0.99) },
    discoveredLayerMs: layer,
  });
  console.error(`README: ${updateReadme()}`);
} finally {
  await service.stop();
}

/**
 * What the discovered layer adds to a known company's search on the local runtime: the same engine with and without
 * the layer on DynamoDB Local, searches interleaved so that load weighs on both alike. Half the targets have 20
 * discovered companies in their primary category, the other half none; the layer's in-memory cache is off (every
 * search reads its categories: the worst case). In the API, these reads start before the credit is reserved
 * (ResearchEngine.prepare) and overlap it.
 */
async function discoveredLayerCost(table: TableRef, samples: number) {
  const store = new DynamoDiscoveredStore(table);
  const layered = new KnowledgeBaseEngine({ index, discovered: store, discoveredCacheMs: 0 });
  const targets = Array.from({ length: samples }, (_, i) => domains[(i * 7919) % domains.length]!);
  const primaryOf = (d: string) => index.entities[engine.model.resolve(d)!]!.categories[0]!;
  const seeded = new Set(targets.filter((_, i) => i % 2 === 0).map(primaryOf));
  const vocabulary = index.text.vocabulary;
  let n = 0;
  for (const c of seeded) {
    for (let k = 0; k < 20; k++, n++) {
      await store.save({
        domain: `bench-${n}.example.com`, name: `Bench ${n}`, description: '', language: 'en',
        categories: [{ id: index.categories[c]!.id, weight: 1 }], terms: Array.from({ length: 40 }, (_, t) => vocabulary[(n * 31 + t * 97) % vocabulary.length]!),
        country: null, url: `https://bench-${n}.example.com/`, fetchedAt: new Date().toISOString(), via: 'search',
      });
    }
  }
  const added = { seeded: [] as number[], empty: [] as number[] };
  for (const [i, domain] of [...targets.slice(0, 20), ...targets].entries()) {
    let started = performance.now();
    await engine.research({ domain, limit: 100, signal });
    const without = performance.now() - started;
    started = performance.now();
    await layered.research({ domain, limit: 100, signal });
    if (i >= 20) (seeded.has(primaryOf(domain)) ? added.seeded : added.empty).push(performance.now() - started - without); // the first 20 warm up
  }
  const p50 = { seeded: quantile(added.seeded.sort((x, y) => x - y), 0.5), empty: quantile(added.empty.sort((x, y) => x - y), 0.5) };
  console.log(`discovered layer, known company, limit 100, ${samples} domains, ${n} discovered companies, cache off (DynamoDB Local)`);
  console.log(`  added p50: ${fmt(p50.empty)} when its categories hold nothing discovered (${added.empty.length}), ${fmt(p50.seeded)} when they do (${added.seeded.length})`);
  return { samples, discovered: n, addedP50Empty: p50.empty, addedP50Seeded: p50.seeded };
}

// The search Lambda's cold start (import with the knowledge base loaded during init, then the first search), measured
// on its deployment bundle in a fresh process as a new container would: the figure the index's load time matters for.
console.log('\nsearch function cold start (bundled as cdk deploy does)');
spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench-cold.ts', '--only', 'Search'], { stdio: 'inherit' });
