// `npm run eval:languages`: how well the engine places homepages by language, on the homepage quality tests' fixture
// pages (English, German, French, Spanish, Portuguese, Italian, Dutch): top-1 category accuracy, rivals recall among
// the first ten, and the CPU the engine spends profiling a page. Pass --verbose for every page.
import { engineFor, figuresOf, homepageCases, scoreCase } from '../test/unit/engine/language-figures.js';

const verbose = process.argv.includes('--verbose');
const cases = homepageCases();
const engine = engineFor(cases);
engine.homepageProfile(cases[0]!.page); // warm-up: entry vectors are built on first use

const results = [];
for (const c of cases) {
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

console.log('\n| language | pages | top-1 category | rivals recall@10 |\n| --- | --- | --- | --- |');
for (const f of figuresOf(results)) console.log(`| ${f.language} | ${f.pages} | ${f.top1.toFixed(2)} | ${f.rivalsRecall.toFixed(2)} |`);
console.log(`\nprofiling a homepage: median ${times[times.length >> 1]!.toFixed(1)} ms CPU, max ${times[times.length - 1]!.toFixed(1)} ms (${cases.length} pages)`);
