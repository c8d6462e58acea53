// local runtime entry point: `npm start`. Runs everything until stopped (Ctrl-C, SIGTERM, SIGHUP, or its parent going
// away), then stops everything it started. DynamoDB Local runs under a watchdog, so it goes even if this is killed -9.
import { relative } from 'node:path';
import { ensureDashboardBuilt } from './dashboard-build.js';
import { DEFAULT_PORT } from './instance.js';
import { PROJECT_ROOT, startLocal, type LocalService } from './runtime.js';

const port = Number(process.env.PORT ?? DEFAULT_PORT);
const dataDir = process.env.DATA_DIR || undefined;
const stateDir = `${PROJECT_ROOT}/.local`;

let starting: Promise<LocalService> | undefined;
let stopping = false;
async function shutdown(why: string, code = 0) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${why}: stopping...`);
  // During start-up, what has started so far is stopped once the start is over (or has failed and cleaned up).
  await (await starting?.catch(() => undefined))?.stop();
  console.log('Stopped.');
  process.exit(code);
}

// Installed before anything starts, so that a stop during start-up stops what has started so far.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    // A second signal while stopping: leave at once (DynamoDB Local's watchdog takes it down within a second).
    if (stopping) process.exit(130);
    void shutdown(signal, 0);
  });
}
// `npm start` execs this process under npm (no tsx CLI, no shell in between), so the parent is npm, an IDE or a shell:
// if it is killed outright, this one would be left serving the port. Checked every second.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && void shutdown('parent process gone'), 1000).unref();

try {
  ensureDashboardBuilt(PROJECT_ROOT, (line) => console.log(`[local] ${line}`));
  starting = startLocal({
    port,
    host: process.env.HOST ?? '127.0.0.1',
    dataDir,
    devCredits: process.env.DEV_CREDITS ? Number(process.env.DEV_CREDITS) : 1000,
    devApiKey: process.env.DEV_API_KEY || undefined,
    stateDir,
    ...(process.env.SWEEP_EVERY_SECONDS ? { scheduleEverySeconds: Number(process.env.SWEEP_EVERY_SECONDS) } : {}),
    log: (line) => console.log(`[local] ${line}`),
    onFatal: (error) => {
      console.error(`\n[local] ${error.message}\n[local] Stopping Rivals: it cannot serve without DynamoDB.`);
      void shutdown('fatal', 1);
    },
  });
  const service = await starting;
  if (stopping) await new Promise(() => undefined); // a signal came during start-up: shutdown() stops it and exits
  const portFlag = service.url.endsWith(`:${DEFAULT_PORT}`) ? '' : `--port ${new URL(service.url).port} `;
  console.log(`
Rivals is running at ${service.url} (pid ${process.pid})
  Dashboard: ${service.url}/   (sign in with the API key below)
  API key:  ${service.apiKey}   (also in ${relative(process.cwd(), service.keyFile!) || service.keyFile})
  Data:     ${dataDir ? `kept in ${dataDir}` : 'in memory, gone when stopped (set DATA_DIR to keep it)'}
  Engines:  DynamoDB Local ${service.endpoints.dynamodb}, s3rver ${service.endpoints.s3}, SQS ${service.endpoints.sqs}
  Health:   ${service.url}/api/health

Try it:
  curl -s ${service.url}/api/v1/search -H 'X-API-Key: ${service.apiKey}' -H 'Content-Type: application/json' -d '{"domain":"stripe.com","limit":5}'
Operator command:
  npm run admin -- ${portFlag}balance --account ${service.accountId}

Ctrl-C (or kill ${process.pid}) stops everything.`);
} catch (error) {
  // startLocal has stopped whatever it had started.
  console.error(`Could not start Rivals locally: ${(error as Error).message}`);
  process.exit(1);
}
