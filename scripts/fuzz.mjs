#!/usr/bin/env node
// The nightly-sized fuzz run: the API fuzz over the local runtime and the CSV fuzz, FUZZ_RUNS inputs each (default
// 10,000; `npm test` runs a few hundred). Prints the counts and the seed; FUZZ_SEED=<seed> replays a run exactly.
import { spawnSync } from 'node:child_process';

const env = { ...process.env, FUZZ_RUNS: process.env.FUZZ_RUNS ?? '10000', FUZZ_SEED: process.env.FUZZ_SEED ?? String(Date.now() % 2 ** 31) };
console.log(`fuzz: FUZZ_RUNS=${env.FUZZ_RUNS} FUZZ_SEED=${env.FUZZ_SEED}`);
const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'test/reliability/fuzz-api.test.ts', 'test/reliability/fuzz-csv.test.ts', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env,
});
console.log(`fuzz: replay with FUZZ_SEED=${env.FUZZ_SEED} FUZZ_RUNS=${env.FUZZ_RUNS} npm run fuzz`);
process.exit(run.status ?? 1);
