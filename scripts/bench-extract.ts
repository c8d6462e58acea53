// dev tool: CPU time of homepage extraction on generated hostile pages (the crawler hardening cases), per page.
// Run with `npm run bench:extract`; each page should take well under 300 ms. Written to bench/results/extract.json for
// the README's performance table (scripts/bench-readme.ts).
import { extractFacts } from '@rivals/crawler';
import { hostilePages } from '../test/unit/crawler/hostile-pages.js';
import { updateReadme } from './bench-readme.js';
import { writeResult } from './bench-results.js';

const RUNS = 5;
const pages: { page: string; kib: number; medianCpuMs: number; maxCpuMs: number }[] = [];

for (const { name, html } of hostilePages()) {
  extractFacts(html, 'utf-8'); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.cpuUsage();
    extractFacts(html, 'utf-8');
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  const kib = Math.round(html.length / 1024);
  pages.push({ page: name, kib, medianCpuMs: times[RUNS >> 1]!, maxCpuMs: times[RUNS - 1]! });
  console.log(`${name.padEnd(52)} ${String(kib).padStart(5)} KiB  median ${times[RUNS >> 1]!.toFixed(1).padStart(6)} ms CPU  max ${times[RUNS - 1]!.toFixed(1).padStart(6)} ms`);
}
writeResult('extract', { runs: RUNS, pages });
console.error(`README: ${updateReadme()}`);
