// `npm run bench:readme`: rewrites the README's performance table (between `<!-- perf:start -->` and
// `<!-- perf:end -->`) from the benches' last figures in bench/results/*.json; every bench also calls it after writing
// its own file. A bench never run yet shows as such, with the command that measures it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { knowledgeBasePath, loadKnowledgeBase } from '@rivals/kb';
import { readResult } from './bench-results.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const README = join(ROOT, 'README.md');
export const PERF_START = '<!-- perf:start -->';
export const PERF_END = '<!-- perf:end -->';

interface Machine {
  cpus: number;
  node: string;
  loadAverage: number;
}
interface Stamped {
  measuredAt: string;
  machine: Machine;
}
interface Engine extends Stamped {
  indexLoadMs: { total: number; parse: number; model: number };
  indexHeapBytes: number;
  engineComputeMs: { domains: number; limit: number; p50: number; p99: number; max: number };
  sequentialSearchMs: { samples: number; p50: number; p95: number; p99: number };
}
interface Cold extends Stamped {
  functions: { function: string; bundleBytes: number; initMs: number | null; firstRequestMs: number | null; heapBytes: number | null }[];
}
interface Bulk extends Stamped {
  domains: number;
  seconds: number;
  domainsPerSecond: number;
  credits: { accountedFor: boolean };
}
interface Extract extends Stamped {
  pages: { medianCpuMs: number; maxCpuMs: number }[];
}
interface Scenario {
  name: string;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number };
  errors: number;
  non2xx: number;
}
interface Load extends Stamped {
  options: { durationSeconds: number; connections: number; bulkDomains: number };
  machine: Machine & { loadAverageAtStart: number };
  scenarios: Scenario[];
  searchCostUnderLoad: { dynamoCalls: number; runtimeCpuMs: number; dynamoCpuMs: number | null };
  bulk: { domains: number; seconds: number; domainsPerSecond: number };
  dynamoCalls: Record<string, { perRequest: number }>;
}

const ms = (n: number) => (n < 1 ? `${n.toFixed(2)} ms` : n < 10 ? `${n.toFixed(1)} ms` : `${Math.round(n)} ms`);
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const range = (values: number[], unit: (n: number) => string) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? `${unit(sorted[0]!)}–${unit(sorted[sorted.length - 1]!)}` : '–';
};
const when = (r: Stamped | null, command: string) =>
  r ? `\`${command}\`, ${r.measuredAt.slice(0, 10)}, Node ${r.machine.node}, load ${r.machine.loadAverage}` : `\`${command}\``;
const missing = (command: string) => `not measured yet: run \`${command}\``;

function knowledgeBaseRow(): string {
  const index = loadKnowledgeBase();
  const lists = readdirSync(join(ROOT, 'packages/kb/data/lists')).filter((f) => f.endsWith('.txt')).length;
  const bytes = readFileSync(knowledgeBasePath()).length;
  return `| knowledge base | ${index.entities.length.toLocaleString('en-US')} entries, ${index.categories.length} categories in ${index.sectors.length} sectors, ${index.relations.length.toLocaleString('en-US')} relations, ${lists} coverage lists ([COVERAGE.md](packages/kb/COVERAGE.md)); index ${mb(bytes)} | \`npm run kb:build\` |`;
}

/** The table, from whatever figures exist. */
export function performanceTable(): string {
  const engine = readResult<Engine>('engine');
  const cold = readResult<Cold>('cold');
  const bulk = readResult<Bulk>('bulk');
  const extract = readResult<Extract>('extract');
  const load = readResult<Load>('load');
  const rows = ['| | figure | measured with |', '|---|---|---|', knowledgeBaseRow()];

  rows.push(
    engine
      ? `| index load (parse + model) | ${ms(engine.indexLoadMs.total)} (${ms(engine.indexLoadMs.parse)} + ${ms(engine.indexLoadMs.model)}), ${mb(engine.indexHeapBytes)} of heap | ${when(engine, 'npm run bench')} |`
      : `| index load | ${missing('npm run bench')} | |`,
    engine
      ? `| engine compute per search, limit ${engine.engineComputeMs.limit}, every knowledge-base domain (${engine.engineComputeMs.domains.toLocaleString('en-US')}) | p50 ${ms(engine.engineComputeMs.p50)}, p99 ${ms(engine.engineComputeMs.p99)} | ${when(engine, 'npm run bench')} |`
      : `| engine compute per search | ${missing('npm run bench')} | |`,
  );

  const search = cold?.functions.find((f) => f.function === 'Search');
  const others = cold?.functions.filter((f) => f.function !== 'Search' && f.initMs !== null) ?? [];
  rows.push(
    search && search.initMs !== null
      ? `| search function cold start (bundle with its data, init with the knowledge base, first search) | ${mb(search.bundleBytes)}, ${ms(search.initMs)} init, ${ms(search.firstRequestMs ?? 0)} first search | ${when(cold, 'npm run bench:cold')} |`
      : `| search function cold start | ${missing('npm run bench:cold')} | |`,
    others.length
      ? `| other functions' init | ${range(others.map((f) => f.initMs!), ms)}, ${range(others.map((f) => f.heapBytes ?? 0), (b) => `${Math.round(b / 1048576)} MB`)} of heap | ${when(cold, 'npm run bench:cold')} |`
      : `| other functions' init | ${missing('npm run bench:cold')} | |`,
  );

  rows.push(
    bulk
      ? `| bulk, ${bulk.domains.toLocaleString('en-US')} domains on the local runtime | ${bulk.seconds.toFixed(1)} s (${Math.round(bulk.domainsPerSecond)} domains/s), ${bulk.credits.accountedFor ? 'every credit accounted for' : '**credits not accounted for**'} | ${when(bulk, 'npm run bench:bulk')} |`
      : `| bulk job on the local runtime | ${missing('npm run bench:bulk')} | |`,
    engine
      ? `| local API, \`POST /api/v1/search\` one at a time (authorizer, rate limiter, DynamoDB Local transactions, engine) | p50 ${ms(engine.sequentialSearchMs.p50)}, p95 ${ms(engine.sequentialSearchMs.p95)} | ${when(engine, 'npm run bench')} |`
      : `| local API, one search at a time | ${missing('npm run bench')} | |`,
  );

  if (load) {
    const c = load.options.connections;
    const figures = (s: Scenario | undefined) =>
      s ? `${Math.round(s.requestsPerSecond)}/s, p50 ${ms(s.latencyMs.p50)}, p99 ${ms(s.latencyMs.p99)}, ${s.errors + s.non2xx} errors` : '–';
    const [alone, mixedSearch, mixedReads] = load.scenarios;
    const cost = load.searchCostUnderLoad;
    const how = `${when({ ...load, machine: { ...load.machine, loadAverage: load.machine.loadAverageAtStart } }, 'npm run bench:load')}, ${load.options.durationSeconds} s a phase`;
    rows.push(
      `| local API under load, searches of known companies, ${c} connections | ${figures(alone)}; a search costs ${load.dynamoCalls.search?.perRequest.toFixed(1)} DynamoDB calls and ${ms(cost.runtimeCpuMs + (cost.dynamoCpuMs ?? 0))} of CPU (${ms(cost.runtimeCpuMs)} runtime, ${cost.dynamoCpuMs === null ? '?' : ms(cost.dynamoCpuMs)} DynamoDB Local) | ${how} |`,
      `| the same at once: searches, free reads (balance, history, a search by id) and a ${load.bulk.domains}-domain bulk job, ${c} connections each | searches ${figures(mixedSearch)}; reads ${figures(mixedReads)}; bulk ${Math.round(load.bulk.domainsPerSecond)} domains/s | ${how} |`,
    );
  } else {
    rows.push(`| local API under load | ${missing('npm run bench:load')} | |`);
  }

  rows.push(
    extract
      ? `| homepage reader, hostile pages (deep nesting, 2 MB text, 900k-element JSON-LD) | ${range(extract.pages.map((p) => p.medianCpuMs), ms)} median CPU, ${ms(Math.max(...extract.pages.map((p) => p.maxCpuMs)))} at worst | ${when(extract, 'npm run bench:extract')} |`
      : `| homepage reader, hostile pages | ${missing('npm run bench:extract')} | |`,
  );
  return rows.join('\n');
}

/** Rewrites the table between the markers; says what it did. */
export function updateReadme(file = README): string {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(PERF_START);
  const end = text.indexOf(PERF_END);
  if (start < 0 || end < start) return `no ${PERF_START} ... ${PERF_END} markers in ${file}; nothing written`;
  const next = `${text.slice(0, start + PERF_START.length)}\n${performanceTable()}\n${text.slice(end)}`;
  if (next === text) return 'performance table unchanged';
  writeFileSync(file, next);
  return 'performance table rewritten';
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) console.log(updateReadme());
