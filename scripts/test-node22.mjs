#!/usr/bin/env node
// Runs the unit and integration tests again on Node 22 (what Lambda runs) when this machine's Node is older, so
// that both supported versions are tested. Node 22 comes from the npm registry (the `node` package), nothing else.
import { spawnSync } from 'node:child_process';

const major = Number(process.versions.node.split('.')[0]);
if (major >= 22) {
  console.log(`test:node22: this is Node ${process.versions.node}; the main run already covered Node 22.`);
  process.exit(0);
}
const run = spawnSync('npx', ['--yes', '-p', 'node@22', '--', 'node', 'node_modules/vitest/vitest.mjs', 'run', 'test/unit', 'test/integration'], {
  stdio: 'inherit',
  env: { ...process.env, npm_config_update_notifier: 'false' },
});
process.exit(run.status ?? 1);
