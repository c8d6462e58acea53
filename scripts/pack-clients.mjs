#!/usr/bin/env node
// Builds the Node clients for use outside this repository and packs each with `npm pack`: @rivals/contracts (the
// schemas and types the others use), @rivals/sdk, @rivals/cli (bin `rivals`) and @rivals/mcp-server (bin
// `rivals-mcp`). In the repository the packages run from their TypeScript sources; here each is compiled to dist/ in a
// staging folder outside the checkout (the checkout stays clean), given the published form of its package.json
// (its `publishConfig` fields: exports, types and bins pointing at dist/) and packed into --out.
//
//   npm run pack:clients -- --out /tmp/rivals-packs      # prints the tarballs' paths, one a line
//   cd my-project && npm install /tmp/rivals-packs/*.tgz
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** In dependency order. */
export const CLIENT_PACKAGES = ['contracts', 'sdk-node', 'cli', 'mcp-server'];

export function packClients(out) {
  mkdirSync(out, { recursive: true });
  const stage = mkdtempSync(join(tmpdir(), 'rivals-pack-'));
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    return CLIENT_PACKAGES.map((dir) => {
      const source = join(ROOT, 'packages', dir);
      const target = join(stage, dir);
      const pkg = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
      execFileSync(process.execPath, [tsc, '-p', join(source, 'tsconfig.build.json'), '--outDir', join(target, 'dist'), '--tsBuildInfoFile', join(stage, `${dir}.tsbuildinfo`)], { stdio: 'inherit' });
      if (!existsSync(join(source, 'README.md'))) throw new Error(`packages/${dir} has no README.md`);
      copyFileSync(join(source, 'README.md'), join(target, 'README.md'));
      const { publishConfig = {}, scripts: _scripts, devDependencies: _dev, private: _private, ...manifest } = pkg;
      const published = { ...manifest, ...publishConfig, files: ['dist', 'README.md'] };
      writeFileSync(join(target, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
      for (const bin of Object.values(published.bin ?? {})) chmodSync(join(target, bin), 0o755);
      const [{ filename }] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: target, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
      return join(out, filename);
    });
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: join(ROOT, '.local', 'packs') } } });
  for (const file of packClients(resolve(values.out))) process.stdout.write(`${file}\n`);
}
