// local runtime entry point: `npm start`. Runs everything until Ctrl-C, then stops everything it started.
import { join } from 'node:path';
import { PROJECT_ROOT, startLocal } from './runtime.js';

const port = Number(process.env.PORT ?? 3000);
const keyFile = join(PROJECT_ROOT, '.local', 'dev-api-key');

try {
  const service = await startLocal({
    port,
    host: process.env.HOST ?? '127.0.0.1',
    dataDir: process.env.DATA_DIR || undefined,
    devCredits: process.env.DEV_CREDITS ? Number(process.env.DEV_CREDITS) : 1000,
    devApiKey: process.env.DEV_API_KEY || undefined,
    keyFile,
    log: (line) => console.log(`[local] ${line}`),
  });
  console.log(`
Rivals is running at ${service.url}
  API key (also in .local/dev-api-key): ${service.apiKey}
  Data: ${process.env.DATA_DIR ? `kept in ${process.env.DATA_DIR}` : 'in memory (set DATA_DIR to keep it)'}

Try it:
  curl -s ${service.url}/api/v1/search -H 'X-API-Key: ${service.apiKey}' -H 'Content-Type: application/json' -d '{"domain":"stripe.com","limit":5}'

Ctrl-C stops everything.`);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping...');
    await service.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
} catch (error) {
  console.error(`Could not start Rivals locally: ${(error as Error).message}`);
  process.exit(1);
}
