// `npm run kb:top`: what the engine ranks for known domains, straight from the compiled knowledge base (no service,
// no credits): the tool for reviewing a sector's rankings as an analyst would, and for scoring a case file offline.
// Usage:
//   npm run kb:top -- stripe.com adyen.com [--top 25] [--why]     each domain's ranking
//   npm run kb:top -- --list sp500 [--from 0 --count 50]            the companies of a coverage list
//   npm run kb:top -- --cases eval/cases.txt [--verbose]            recall@10/25/100 of a case file, misses with --verbose
//   npm run kb:top -- --seeds delta.com,united.com,aa.com [--why]   look-alikes of several seeds, with the seeds each is close to
// KB_INDEX_PATH points it at another compiled index (a branch's build).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registrableDomain } from '@rivals/core';
import { createEngine } from '@rivals/engine';

const argv = process.argv.slice(2);
const flags = new Map<string, string>();
const domains: string[] = [];
for (let i = 0; i < argv.length; i++) {
  const a = argv[i]!;
  if (!a.startsWith('--')) domains.push(a.toLowerCase());
  else if (['--why', '--verbose'].includes(a)) flags.set(a.slice(2), 'true');
  else flags.set(a.slice(2), argv[++i] ?? '');
}
const top = Number(flags.get('top') ?? 25);
const engine = createEngine();
const signal = new AbortController().signal;
const rank = async (domain: string) => (await engine.research({ domain, limit: 100, signal })).competitors;

if (flags.has('seeds')) {
  const seeds = flags.get('seeds')!.split(',').map((d) => d.trim().toLowerCase()).filter(Boolean);
  const rows = (await engine.research({ domain: seeds[0]!, seeds, limit: 100, signal })).competitors.slice(0, top);
  console.log(`\n## like ${seeds.join(', ')}: ${rows.length ? '' : 'NOT ANSWERED'}`);
  rows.forEach((r, i) => {
    const why = flags.has('why') ? `  [${r.evidence.relation ?? '-'}; ${r.evidence.sharedCategories.join(',')}]` : '';
    const f = r.firmographics;
    console.log(`${String(i + 1).padStart(3)} ${r.matchScore} ${r.type.padEnd(8)} ${r.company} (${r.domain}) ~ ${r.similarTo?.join(' ')}  {${f.founded} ${f.size} ${f.hq} ${f.ownership}${f.ticker ? ` ${f.ticker}` : ''}}${why}`);
  });
} else if (flags.has('cases')) {
  const cases = readFileSync(flags.get('cases')!, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => ({
      target: l.slice(0, l.indexOf(':')).trim(),
      expected: l
        .slice(l.indexOf(':') + 1)
        .split(',')
        .map((g) => g.trim().split('|').map((d) => registrableDomain(d.trim().toLowerCase())))
        .filter((g) => g[0]),
    }));
  const sums = { 10: 0, 25: 0, 100: 0 };
  for (const c of cases) {
    const found = (await rank(c.target)).map((r) => registrableDomain(r.domain));
    const position = (g: string[]) => found.findIndex((d) => g.includes(d)) + 1;
    for (const k of [10, 25, 100] as const) sums[k] += c.expected.filter((g) => position(g) > 0 && position(g) <= k).length / c.expected.length;
    const missed = c.expected.filter((g) => !(position(g) > 0 && position(g) <= 25));
    if (flags.has('verbose') && missed.length) console.log(`${c.target}: ${missed.map((g) => `${g.join('|')}@${position(g) || '-'}`).join(' ')}`);
  }
  const n = cases.length;
  console.log(`${n} cases: recall@10 ${(sums[10] / n).toFixed(3)}, recall@25 ${(sums[25] / n).toFixed(3)}, recall@100 ${(sums[100] / n).toFixed(3)}`);
} else {
  if (flags.has('list')) {
    const file = join(import.meta.dirname, '..', 'packages', 'kb', 'data', 'lists', `${flags.get('list')}.txt`);
    const listed = readFileSync(file, 'utf8')
      .split('\n')
      .map((l) => l.replace(/#.*$/, '').trim().split(/\s+/)[0]!)
      .filter(Boolean);
    const from = Number(flags.get('from') ?? 0);
    domains.push(...listed.slice(from, from + Number(flags.get('count') ?? listed.length)));
  }
  for (const domain of domains) {
    const rows = (await rank(domain)).slice(0, top);
    console.log(`\n## ${domain}: ${rows.length ? '' : 'NOT ANSWERED'}`);
    rows.forEach((r, i) => {
      const why = flags.has('why') ? `  [${r.evidence.relation ?? '-'}; ${r.evidence.sharedCategories.join(',')}]` : '';
      console.log(`${String(i + 1).padStart(3)} ${r.matchScore} ${r.type.padEnd(8)} ${r.company} (${r.domain})${why}`);
    });
  }
}
