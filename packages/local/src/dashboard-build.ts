// local runtime: keeps the dashboard's build current for `npm start`. `npm ci` builds it (the root postinstall); a
// start finds it missing or older than its sources (an edit, a pull) and builds it again before serving.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DASHBOARD_DIST } from '../../../infra/web.js';

/** The newest modification time under these files and folders (node_modules and dist skipped). */
function newest(paths: string[]): number {
  let latest = 0;
  for (const path of paths) {
    if (!existsSync(path)) continue;
    const info = statSync(path);
    if (info.isDirectory()) {
      for (const entry of readdirSync(path)) if (entry !== 'node_modules' && entry !== 'dist') latest = Math.max(latest, newest([join(path, entry)]));
    } else latest = Math.max(latest, info.mtimeMs);
  }
  return latest;
}

/** Why the dashboard needs building, or null when its build is current. */
export function dashboardBuildReason(projectRoot: string): string | null {
  const index = join(projectRoot, DASHBOARD_DIST, 'index.html');
  if (!existsSync(index)) return 'not built yet';
  const sources = newest([join(projectRoot, 'packages', 'dashboard'), join(projectRoot, 'packages', 'sdk-node', 'src')]);
  return sources > statSync(index).mtimeMs ? 'its sources changed since the last build' : null;
}

/** Builds the dashboard when needed (a few seconds); false when the build failed (the API still serves). */
export function ensureDashboardBuilt(projectRoot: string, log: (line: string) => void): boolean {
  const reason = dashboardBuildReason(projectRoot);
  if (!reason) return true;
  log(`Building the dashboard (${reason})...`);
  const built = spawnSync('npm', ['run', 'dashboard:build'], { cwd: projectRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) log('The dashboard build failed; the API serves anyway (run `npm run dashboard:build` to see why).');
  return built.status === 0;
}
