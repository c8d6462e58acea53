#!/usr/bin/env node
// Runs the unit and integration tests again on Node 22 (what Lambda runs) when this machine's Node is older, so
// that both supported versions are tested. Node 22 comes from the npm registry (the `node` package), nothing else.
// Of the reliability tests it runs those whose outcome depends on the runtime (sockets and DNS hooks of the SSRF canary,
// crypto of the tokens, the CSV streams); the ones over the local runtime run once, as the end-to-end tests do.
import { spawnSync } from 'node:child_process';

const NODE22_RELIABILITY = ['test/reliability/ssrf.test.ts', 'test/reliability/access-control.test.ts', 'test/reliability/fuzz-csv.test.ts'];
const major = Number(process.versions.node.split('.')[0]);
if (major >= 22) {
  console.log(`test:node22: this is Node ${process.versions.node}; the main run already covered Node 22.`);
  process.exit(0);
}
const run = spawnSync('npx', ['--yes', '-p', 'node@22', '--', 'node', 'node_modules/vitest/vitest.mjs', 'run', 'test/unit', 'test/integration', ...NODE22_RELIABILITY], {
  stdio: 'inherit',
  env: { ...process.env, npm_config_update_notifier: 'false' },
});
process.exit(run.status ?? 1);
