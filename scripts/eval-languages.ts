// `npm run eval:languages`: how well the engine places homepages by language, on the homepage quality tests' fixture
// pages (English, German, French, Spanish, Portuguese, Italian, Dutch): top-1 category accuracy and rivals recall among
// the first ten, per language and for the same companies' pages written in English (their twins), and the CPU the
// engine spends profiling a page. Pass --verbose for every page.
import { engineFor, figuresOf, homepageCases, scoreCase, type HomepageCase, type PageResult } from '../test/unit/engine/language-figures.js';

const verbose = process.argv.includes('--verbose');
const cases = homepageCases({ twins: true });
const scoreWith = async (list: HomepageCase[]) => {
  const engine = engineFor(list);
  const out: PageResult[] = [];
  for (const c of list) out.push(await scoreCase(engine, c));
  return out;
};
// Twins share their page's domain, so they are scored by an engine of their own.
const twins = await scoreWith(cases.filter((c) => c.language.startsWith('en-')));
const engine = engineFor(cases.filter((c) => !c.language.startsWith('en-')));
engine.homepageProfile(cases[0]!.page); // warm-up: entry vectors are built on first use

const results: PageResult[] = [];
for (const c of cases.filter((x) => !x.language.startsWith('en-'))) {
  const r = await scoreCase(engine, c);
  results.push(r);
  if (verbose || !r.placed || r.rivalsMissed.length) {
    console.log(`${r.language} ${r.domain.padEnd(30)} detected=${r.detected ?? '-'} placed=${r.placedIn}${r.placed ? '' : ' (wrong)'} rivals ${r.rivalsFound.length}/${r.rivalsFound.length + r.rivalsMissed.length}${r.rivalsMissed.length ? ` missing ${r.rivalsMissed.join(' ')}` : ''}`);
  }
}

const times: number[] = [];
for (const c of cases) {
  const start = process.cpuUsage();
  engine.homepageProfile(c.page);
  const used = process.cpuUsage(start);
  times.push((used.user + used.system) / 1000);
}
times.sort((a, b) => a - b);

for (const r of twins) {
  if (verbose || !r.placed || r.rivalsMissed.length) console.log(`${r.language} ${r.domain.padEnd(30)} placed=${r.placedIn}${r.placed ? '' : ' (wrong)'} rivals ${r.rivalsFound.length}/${r.rivalsFound.length + r.rivalsMissed.length}`);
}

const fmt = (n: number | undefined) => (n === undefined ? '–' : n.toFixed(2));
const all = (rows: PageResult[]) => figuresOf(rows.map((r) => ({ ...r, language: 'all six' })));
/** One table: each language's pages, then the same pages in English. */
function table(title: string, mine: PageResult[], theirs: PageResult[]) {
  const twinFigures = new Map(figuresOf(theirs).map((f) => [f.language.slice(3), f]));
  console.log(`\n${title}\n\n| language | pages | top-1 category | rivals recall@10 | same pages in English: top-1 | rivals recall@10 |\n| --- | --- | --- | --- | --- | --- |`);
  for (const f of [...figuresOf(mine), ...all(mine.filter((r) => r.language !== 'en'))]) {
    const twin = f.language === 'all six' ? all(theirs)[0] : twinFigures.get(f.language);
    console.log(`| ${f.language} | ${f.pages} | ${fmt(f.top1)} | ${fmt(f.rivalsRecall)} | ${fmt(twin?.top1)} | ${fmt(twin?.rivalsRecall)} |`);
  }
}
table('Fixture pages (the lexicon was written with them in view)', results.filter((r) => !r.heldOut), twins.filter((r) => !r.heldOut));
table('Held-out pages (written after the lexicon, never used to tune it)', results.filter((r) => r.heldOut), twins.filter((r) => r.heldOut));

console.log(`\nprofiling a homepage: median ${times[times.length >> 1]!.toFixed(1)} ms CPU, max ${times[times.length - 1]!.toFixed(1)} ms (${cases.length} pages)`);
