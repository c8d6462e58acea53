// local runtime: the whole service on one machine. Local AWS engines, the resources the CDK app declares, the
// environment the Lambda handlers read, a development account with its key, and the HTTP front.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDocumentClient, createDynamoClient, type TableRef } from '@rivals/db';
import { LOCAL_CREDENTIALS, LOCAL_HOST, LOCAL_REGION, startDynamoDbLocal, startS3, startSqs, type RunningEngine } from './engines.js';
import { createFront } from './front.js';
import { provision, type ProvisionedResources } from './provision.js';
import { startSchedules } from './schedules.js';
import { tableServices } from './services.js';

export const PROJECT_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const DEV_ACCOUNT_ID = 'acct_dev';

export interface LocalOptions {
  port?: number;
  host?: string;
  /** Keep DynamoDB and S3 data here between runs; in memory (and a temporary folder) otherwise. */
  dataDir?: string;
  devCredits?: number;
  devApiKey?: string;
  /** Where the dev key is written; nothing is written when null. */
  keyFile?: string | null;
  log?: (line: string) => void;
  /** Seconds between runs of the scheduled functions (the sweeper); default 60. */
  scheduleEverySeconds?: number;
}

export interface LocalService {
  url: string;
  apiKey: string;
  accountId: string;
  resources: ProvisionedResources;
  endpoints: { dynamodb: string; s3: string; sqs: string };
  table: TableRef;
  stop(): Promise<void>;
}

export async function startLocal(options: LocalOptions = {}): Promise<LocalService> {
  const log = options.log ?? (() => undefined);
  const started: RunningEngine[] = [];
  const scratch = options.dataDir ? null : mkdtempSync(join(tmpdir(), 'rivals-s3-'));
  let server: Server | undefined;
  let schedules: { stop(): Promise<void> } | undefined;
  const stop = async () => {
    await schedules?.stop();
    if (server) await new Promise<void>((r) => server!.close(() => r()));
    server?.closeAllConnections();
    for (const engine of started.reverse()) await engine.stop().catch(() => undefined);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  };
  try {
    const [dynamodb, s3, sqs] = await Promise.all([
      startDynamoDbLocal(options.dataDir ? { dataDir: join(options.dataDir, 'dynamodb') } : {}),
      startS3({ directory: options.dataDir ? join(options.dataDir, 's3') : scratch! }),
      startSqs(),
    ]);
    started.push(dynamodb, s3, sqs);
    const endpoints = { dynamodb: dynamodb.endpoint, s3: s3.endpoint, sqs: sqs.endpoint };
    log(`engines: DynamoDB Local ${endpoints.dynamodb}, s3rver ${endpoints.s3}, SQS ${endpoints.sqs}`);

    const clientConfig = { region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS };
    const resources = await provision(endpoints, 'rivals-local', clientConfig);
    Object.assign(process.env, {
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
      AWS_ENDPOINT_URL_S3: endpoints.s3,
      AWS_ENDPOINT_URL_SQS: endpoints.sqs,
      AWS_LAMBDA_FUNCTION_NAME: 'rivals-local',
      TABLE_NAME: resources.tableName,
      UPLOADS_BUCKET: resources.bucketName,
      BULK_QUEUE_URL: resources.queues.BulkQueue ?? '',
      POWERTOOLS_DEV: 'true',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'WARN',
    });

    const table: TableRef = { client: createDocumentClient(createDynamoClient({ ...clientConfig, endpoint: endpoints.dynamodb })), tableName: resources.tableName };
    const { accountId, apiKey } = await ensureDevAccount(table, options.devCredits ?? 1000, options.devApiKey);

    server = createFront({ projectRoot: PROJECT_ROOT, log });
    schedules = startSchedules({ projectRoot: PROJECT_ROOT, everySeconds: options.scheduleEverySeconds ?? 60, log });
    const host = options.host ?? LOCAL_HOST;
    await new Promise<void>((resolveListen, reject) => {
      server!.once('error', reject);
      server!.listen(options.port ?? 3000, host, () => resolveListen());
    });
    const { port } = server.address() as AddressInfo;
    const url = `http://${host}:${port}`;
    if (options.keyFile) {
      mkdirSync(join(options.keyFile, '..'), { recursive: true });
      writeFileSync(options.keyFile, `${apiKey}\n`, { mode: 0o600 });
      writeFileSync(join(options.keyFile, '..', 'runtime.json'), JSON.stringify({ url, endpoints, resources }, null, 2));
    }
    return { url, apiKey, accountId, resources, endpoints, table, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The development account: created once with its credits; a key issued on every start (or the DEV_API_KEY given). */
async function ensureDevAccount(table: TableRef, credits: number, presetKey?: string): Promise<{ accountId: string; apiKey: string }> {
  const { accounts, apiKeys: keys } = tableServices(table);
  if (!(await accounts.get(DEV_ACCOUNT_ID))) await accounts.open('Development', credits, DEV_ACCOUNT_ID);
  if (presetKey) {
    const existing = await keys.authenticate(presetKey);
    if (existing) return { accountId: existing.accountId, apiKey: presetKey };
  }
  const issued = await keys.issue(DEV_ACCOUNT_ID, 'development', presetKey);
  return { accountId: DEV_ACCOUNT_ID, apiKey: issued.key };
}
