// `npm run eval`: scores the running service (or a local one it starts) on evaluation cases: recall@10/25/100 of the
// competitors an analyst would name, contract violations, latency; and on look-alike groups (POST /api/v1/lookalikes):
// recall of the rest of each group from three of its members.
// Usage: npm run eval [-- --cases FILE[,FILE] --base URL --key KEY --limit 100 --verbose]
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LookalikesResult, SearchResult } from '@rivals/contracts';
import { registrableDomain } from '@rivals/core';
import { PROJECT_ROOT, raiseRateLimits, startLocal, type LocalService } from '@rivals/local';

interface Case {
  /** The target domain, or a look-alike group's name. */
  target: string;
  /** A look-alike group's seeds (its line reads "group: seed, seed => member, ..."). */
  seeds?: string[];
  expected: string[][];
}

const args = new Map<string, string>();
process.argv.slice(2).forEach((a, i, all) => a.startsWith('--') && args.set(a.slice(2), all[i + 1]?.startsWith('--') ? 'true' : (all[i + 1] ?? 'true')));
const limit = Number(args.get('limit') ?? 100);
const verbose = args.has('verbose');
// The project's own cases by default; any other case file of the same format with --cases (comma-separated).
const caseFiles = args.get('cases')?.split(',') ?? [join(PROJECT_ROOT, 'eval', 'cases.txt'), join(PROJECT_ROOT, 'eval', 'lookalikes.txt')];
for (const file of caseFiles) if (!existsSync(file)) throw new Error(`no cases file ${file}`);

export function parseCases(text: string): Case[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const at = l.indexOf(':');
      const groups = (text: string) =>
        text
          .split(',')
          .map((g) => g.trim().split('|').map((d) => registrableDomain(d.trim().toLowerCase())))
          .filter((g) => g[0]);
      const [head, members] = l.slice(at + 1).split('=>');
      // A seed given with aliases is sent as its first domain.
      if (members !== undefined) return { target: l.slice(0, at).trim(), seeds: groups(head!).map((g) => g[0]!), expected: groups(members) };
      return { target: l.slice(0, at).trim(), expected: groups(head!) };
    });
}

/** A look-alike answer: the contract, ranks, scores that never rise, no seed returned, similarTo naming seeds. */
function lookalikeProblems(seeds: string[], body: unknown): string[] {
  const parsed = LookalikesResult.safeParse(body);
  if (!parsed.success) return parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`);
  const r = parsed.data;
  const problems: string[] = [];
  if (r.totalCompanies !== r.companies.length) problems.push('totalCompanies != length');
  const seen = new Set<string>();
  r.companies.forEach((c, i) => {
    if (c.rank !== i + 1) problems.push(`#${i + 1} rank ${c.rank}`);
    if (i > 0 && c.matchScore > r.companies[i - 1]!.matchScore) problems.push(`#${i + 1} score rises`);
    if (seeds.includes(registrableDomain(c.domain))) problems.push(`#${i + 1} is a seed`);
    if (c.similarTo.some((s) => !r.domains.includes(s))) problems.push(`#${i + 1} similarTo names a non-seed`);
    if (seen.has(c.domain)) problems.push(`#${i + 1} duplicate ${c.domain}`);
    seen.add(c.domain);
  });
  return [...new Set(problems)];
}

function contractProblems(target: string, body: unknown): string[] {
  const problems: string[] = [];
  const parsed = SearchResult.safeParse(body);
  if (!parsed.success) return parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`);
  const r = parsed.data;
  if (r.totalCompetitors !== r.competitors.length) problems.push('totalCompetitors != length');
  if (r.likelyCompetitors !== r.competitors.filter((c) => c.likelyCompetitor).length) problems.push('likelyCompetitors mismatch');
  if (r.competitors.length > limit) problems.push('more than limit');
  const seen = new Set<string>();
  r.competitors.forEach((c, i) => {
    if (c.rank !== i + 1) problems.push(`#${i + 1} rank ${c.rank}`);
    if (i > 0 && c.matchScore > r.competitors[i - 1]!.matchScore) problems.push(`#${i + 1} score rises`);
    if (registrableDomain(c.domain) === registrableDomain(target)) problems.push(`#${i + 1} is the target`);
    if (seen.has(c.domain)) problems.push(`#${i + 1} duplicate ${c.domain}`);
    seen.add(c.domain);
  });
  return [...new Set(problems)];
}

const quantile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

interface Row {
  target: string;
  status: number;
  ms: number;
  n: number;
  r10: number;
  r25: number;
  r100: number;
  problems: string[];
  missing: (string | undefined)[];
}

async function evaluate(file: string, base: string, key: string) {
  const cases = parseCases(readFileSync(file, 'utf8'));
  const rows: Row[] = [];
  for (const c of cases) {
    let started = performance.now();
    let res: Response;
    for (;;) {
      res = await fetch(`${base}/api/v1/${c.seeds ? 'lookalikes' : 'search'}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify(c.seeds ? { domains: c.seeds, limit } : { domain: c.target, limit }),
      });
      if (res.status !== 429) break;
      // Rate limited (10 searches a second per key by default): wait as told, then retry.
      await res.arrayBuffer();
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
      started = performance.now();
    }
    const ms = performance.now() - started;
    type Ranked = { domain: string; type: string; matchScore: number };
    const body = (await res.json().catch(() => null)) as { competitors?: Ranked[]; companies?: Ranked[] } | null;
    const list = (c.seeds ? body?.companies : body?.competitors) ?? [];
    const recall = (k: number) => {
      const top = new Set(list.slice(0, k).map((x) => registrableDomain(x.domain)));
      return c.expected.filter((alts) => alts.some((a) => top.has(a))).length / Math.min(c.expected.length, k);
    };
    const problems = res.status !== 200 ? [`HTTP ${res.status}`] : c.seeds ? lookalikeProblems(c.seeds, body) : contractProblems(c.target, body);
    const missing = c.expected.filter((alts) => !alts.some((a) => list.slice(0, 25).some((x) => registrableDomain(x.domain) === a))).map((a) => a[0]);
    rows.push({ target: c.target, status: res.status, ms, n: list.length, r10: recall(10), r25: recall(25), r100: recall(100), problems, missing });
    const line = `${c.target.padEnd(24)} ${res.status} ${ms.toFixed(0).padStart(5)}ms n=${String(list.length).padStart(3)} r@10=${recall(10).toFixed(2)} r@25=${recall(25).toFixed(2)} r@100=${recall(100).toFixed(2)}`;
    console.log(`${line} ${problems.join('; ')}${verbose && missing.length ? ` missing@25: ${missing.join(' ')}` : ''}`);
    if (verbose) console.log(`    top: ${list.slice(0, 10).map((x) => `${x.domain}:${x.type[0]}${x.matchScore}`).join(' ')}`);
  }
  const mean = (f: (r: Row) => number) => rows.reduce((s, r) => s + f(r), 0) / Math.max(rows.length, 1);
  const ms = rows.map((r) => r.ms).sort((a, b) => a - b);
  return {
    file,
    cases: rows.length,
    ok: rows.filter((r) => r.status === 200).length,
    contractViolations: rows.filter((r) => r.problems.length > 0 && r.status === 200).length,
    recall10: +mean((r) => r.r10).toFixed(3),
    recall25: +mean((r) => r.r25).toFixed(3),
    recall100: +mean((r) => r.r100).toFixed(3),
    p50ms: +quantile(ms, 0.5).toFixed(1),
    p95ms: +quantile(ms, 0.95).toFixed(1),
  };
}

let local: LocalService | undefined;
try {
  let base = args.get('base');
  let key = args.get('key') ?? process.env.RIVALS_API_KEY;
  if (!base) {
    // Sequential calls from one key go past the documented 10 a second: this private service gets higher limits.
    raiseRateLimits();
    local = await startLocal({ port: 0, devCredits: 100_000, keyFile: null });
    base = local.url;
    key = local.apiKey;
  }
  if (!key) throw new Error('--key is required with --base');
  for (const file of caseFiles) {
    console.log(`\n== ${file}`);
    console.log(`summary ${JSON.stringify(await evaluate(file, base, key))}`);
  }
} finally {
  await local?.stop();
}
