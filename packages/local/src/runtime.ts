// local runtime: the whole service on one machine. Local AWS engines, the resources the CDK app declares, the
// environment the Lambda handlers read, a development account with its key, and the HTTP front (API and dashboard).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDocumentClient, createDynamoClient, type TableRef } from '@rivals/db';
import { PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { freePort, LOCAL_HOST, LOCAL_REGION, randomCredentials, startDynamoDbLocal, startS3, startSqs, type DynamoDbLocalOptions, type RunningEngine, type RunningS3 } from './engines.js';
import type { LocalCredentials } from './s3-auth.js';
import { DASHBOARD_DIST } from '../../../infra/web.js';
import { AuthorizerCache, createFront, createGatewayControl } from './front.js';
import { AUTHORIZER } from '../../../infra/routes.js';
import { DEFAULT_PORT, lockDataDir, removeInstance, writeInstance } from './instance.js';
import { provision, redrivenDeadLetterQueueUrls, type ProvisionedResources } from './provision.js';
import { resumeQueuedWork } from './resume.js';
import { startSchedules } from './schedules.js';
import { tableServices } from './services.js';
import { startLocalWorkers, type LocalWorkers } from './workers.js';

export const PROJECT_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const DEV_ACCOUNT_ID = 'acct_dev';

const PREFIX = 'rivals-local';
/** The local front's stage name (in method ARNs, and the stage whose authorizer cache a revocation empties). */
export const STAGE = 'local';
/** The REST API id the local handlers name when they empty the authorizer cache. */
export const LOCAL_REST_API_ID = 'local';

export interface LocalOptions {
  port?: number;
  host?: string;
  /** Keep DynamoDB and S3 data here between runs (one instance at a time); in memory (and a temporary folder) otherwise. */
  dataDir?: string;
  devCredits?: number;
  devApiKey?: string;
  /** Where the instance's files go (`.local` of the project for `npm start`, see instance.ts); nothing is written when absent. */
  stateDir?: string | null;
  /** @deprecated Nothing is written unless `stateDir` is given. */
  keyFile?: null;
  log?: (line: string) => void;
  /** A part failed for good (DynamoDB Local could not be restarted). `npm start` stops everything and exits. */
  onFatal?: (error: Error) => void;
  /** Seconds between runs of the scheduled functions (the sweeper, and with it the re-drive); default 60. */
  scheduleEverySeconds?: number;
  /** Seconds the front keeps the authorizer's answer for a key; default the API stack's (AUTHORIZER.cacheTtlSeconds), 0 for none. */
  authorizerCacheTtlSeconds?: number;
}

export interface LocalService {
  url: string;
  apiKey: string;
  accountId: string;
  resources: ProvisionedResources;
  endpoints: { dynamodb: string; s3: string; sqs: string };
  table: TableRef;
  /** Where the development key was written, when `stateDir` was given. */
  keyFile: string | null;
  /** The bulk workers (queue pollers, upload events). */
  workers: LocalWorkers;
  stop(): Promise<void>;
}

interface Engines {
  dynamodb: RunningEngine;
  s3: RunningS3;
  sqs: RunningEngine;
}

export async function startLocal(options: LocalOptions = {}): Promise<LocalService> {
  const log = options.log ?? (() => undefined);
  const fatal = options.onFatal ?? ((error: Error) => log(`FATAL: ${error.message}`));
  const cleanups: (() => unknown)[] = [];
  let stopping = false;
  const deaths: number[] = [];
  const stop = async () => {
    stopping = true;
    for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve().then(cleanup).catch(() => undefined);
  };
  try {
    if (options.dataDir) cleanups.push(lockDataDir(options.dataDir, options.port ?? DEFAULT_PORT));
    const dynamoOptions: DynamoDbLocalOptions = {
      port: await freePort(),
      ...(options.dataDir ? { dataDir: join(options.dataDir, 'dynamodb'), workDir: join(options.dataDir, 'dynamodb') } : {}),
      onExit: (reason) => void restartDynamoDb(reason),
    };
    // Random per run: only this process (and whoever reads the 0600 file beside the key) can sign requests to the
    // engines; DynamoDB Local in memory keeps a separate database per access key, so a guessed key sees nothing.
    const credentials = randomCredentials();
    const clientConfig = { region: LOCAL_REGION, credentials };
    const engines = await startEngines(dynamoOptions, options.dataDir, cleanups, credentials);
    const endpoints = { dynamodb: engines.dynamodb.endpoint, s3: engines.s3.endpoint, sqs: engines.sqs.endpoint };

    const resources = await provision(endpoints, PREFIX, clientConfig);
    await allowBrowserUploads(endpoints.s3, resources.bucketName, credentials);
    // The front's authorizer cache, and the control server through which a key revocation empties it (as in AWS).
    const authorizerCache = new AuthorizerCache((options.authorizerCacheTtlSeconds ?? AUTHORIZER.cacheTtlSeconds) * 1000);
    const control = createGatewayControl(authorizerCache, STAGE);
    cleanups.push(() => closeServer(control));
    const gatewayControl = await listen(control, 0, LOCAL_HOST);
    configureHandlers(endpoints, resources, gatewayControl, credentials, webhookSecretKey(options.dataDir));

    const table: TableRef = { client: createDocumentClient(createDynamoClient({ ...clientConfig, endpoint: endpoints.dynamodb })), tableName: resources.tableName };
    const credits = options.devCredits ?? 1000;
    const { accountId, apiKey } = await ensureDevAccount(table, credits, options.devApiKey);

    /**
     * DynamoDB Local died: restart it on the same port (the handlers' clients keep their endpoint) and provision again,
     * the table and then the development account with the same key, rather than exit. With DATA_DIR nothing is lost and
     * the service heals; in memory the data is lost either way, and the key the user holds keeps working. Said loudly.
     * Three deaths within a minute, or a restart that fails, are fatal: a loop would hide a broken Java or machine.
     */
    async function restartDynamoDb(reason: string) {
      if (stopping) return;
      log(`DynamoDB Local stopped unexpectedly (${reason}); restarting it.`);
      deaths.push(Date.now());
      if (deaths.filter((t) => Date.now() - t < 60_000).length >= 3) return fatal(new Error('DynamoDB Local stopped 3 times within a minute; giving up.'));
      try {
        engines.dynamodb = await startDynamoDbLocal(dynamoOptions);
        if (stopping) return void (await engines.dynamodb.stop());
        await provision(endpoints, PREFIX, clientConfig, { tablesOnly: true });
        await ensureDevAccount(table, credits, apiKey);
        log(
          options.dataDir
            ? 'DynamoDB Local restarted; its data in DATA_DIR is kept.'
            : `DynamoDB Local restarted IN MEMORY: every account, key, credit and search since the start is LOST. The table and the development account (same key, ${credits} credits) are back.`,
        );
      } catch (error) {
        fatal(new Error(`DynamoDB Local stopped and could not be restarted: ${(error as Error).message}`));
      }
    }

    const server = createFront({
      projectRoot: PROJECT_ROOT,
      log,
      dashboard: { root: join(PROJECT_ROOT, DASHBOARD_DIST), connectSources: [endpoints.s3] },
      stage: STAGE,
      authorizerCache,
    });
    cleanups.push(() => closeServer(server));
    // The queues live in local-aws-sqs's memory: what the last run left queued is rebuilt from the table (DATA_DIR).
    if (options.dataDir) await resumeQueuedWork(PROJECT_ROOT, log);
    const workers = startLocalWorkers({
      projectRoot: PROJECT_ROOT,
      sqs: new SQSClient({ ...clientConfig, endpoint: endpoints.sqs }),
      queues: { bulk: resources.queues.BulkQueue!, webhook: resources.queues.WebhookQueue!, aggregate: resources.queues.AggregateQueue!, monitor: resources.queues.MonitorQueue! },
      onObjectEvent: engines.s3.onObjectEvent,
      bucket: resources.bucketName,
      log,
    });
    cleanups.push(() => workers.stop());
    const schedules = startSchedules({ projectRoot: PROJECT_ROOT, everySeconds: options.scheduleEverySeconds ?? 60, log });
    cleanups.push(() => schedules.stop());
    const url = await listen(server, options.port ?? DEFAULT_PORT, options.host ?? LOCAL_HOST);
    let keyFile: string | null = null;
    if (options.stateDir) {
      const { stateDir } = options;
      const port = Number(new URL(url).port);
      keyFile = writeInstance(stateDir, { url, pid: process.pid, port, dataDir: options.dataDir ?? null, endpoints, gatewayControl, resources, startedAt: new Date().toISOString() }, apiKey, credentials);
      cleanups.push(() => removeInstance(stateDir, port));
    }
    return { url, apiKey, accountId, resources, endpoints, table, keyFile, workers, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The dashboard PUTs a CSV over 5 MB straight to the presigned URL, across origins (the front's port to s3rver's), as
 * it does to S3 in AWS (there the bucket allows the origins of the `uploadOrigins` setting). Locally any origin may:
 * s3rver listens on loopback only and the presigned URL is the credential.
 */
async function allowBrowserUploads(endpoint: string, bucket: string, credentials: LocalCredentials) {
  const s3 = new S3Client({ region: LOCAL_REGION, credentials, endpoint, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
  await s3.send(
    new PutBucketCorsCommand({
      Bucket: bucket,
      CORSConfiguration: { CORSRules: [{ AllowedMethods: ['PUT'], AllowedOrigins: ['*'], AllowedHeaders: ['content-type', 'content-length'], MaxAgeSeconds: 3600 }] },
    }),
  );
  s3.destroy();
}

/** DynamoDB Local, s3rver and SQS; each is stopped by the cleanups, DynamoDB Local as it is then (it may be restarted). */
async function startEngines(dynamoOptions: DynamoDbLocalOptions, dataDir: string | undefined, cleanups: (() => unknown)[], credentials: LocalCredentials): Promise<Engines> {
  const s3Dir = dataDir ? join(dataDir, 's3') : mkdtempSync(join(tmpdir(), 'rivals-s3-'));
  if (!dataDir) cleanups.push(() => rmSync(s3Dir, { recursive: true, force: true }));
  const started = await Promise.allSettled([startDynamoDbLocal(dynamoOptions), startS3({ directory: s3Dir, credentials }), startSqs()]);
  const engines = {} as Engines;
  const names = ['dynamodb', 's3', 'sqs'] as const;
  started.forEach((result, i) => {
    if (result.status === 'fulfilled') {
      (engines as unknown as Record<string, RunningEngine>)[names[i]!] = result.value;
      cleanups.push(() => engines[names[i]!].stop());
    }
  });
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return engines;
}

/** The environment the Lambda handlers read, pointing at the local engines. Health probes them (see functions/http/health.ts). */
/**
 * The key webhook signing secrets are sealed with (as Secrets Manager holds it in AWS): kept in DATA_DIR beside the
 * data it opens (0600), so that a restart still reads them; a key of this run only when the data is in memory too.
 */
function webhookSecretKey(dataDir: string | undefined): Buffer {
  if (!dataDir) return randomBytes(32);
  const file = join(dataDir, 'webhook-secret-key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

function configureHandlers(endpoints: LocalService['endpoints'], resources: ProvisionedResources, gatewayControl: string, credentials: LocalCredentials, webhookKey: Buffer) {
  Object.assign(process.env, {
    AWS_REGION: LOCAL_REGION,
    WEBHOOK_SECRET_KEY: webhookKey.toString('base64'),
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
    AWS_ENDPOINT_URL_S3: endpoints.s3,
    AWS_ENDPOINT_URL_SQS: endpoints.sqs,
    AWS_ENDPOINT_URL_API_GATEWAY: gatewayControl,
    REST_API_ID: LOCAL_REST_API_ID,
    API_STAGE: STAGE,
    AWS_LAMBDA_FUNCTION_NAME: 'rivals-local',
    TABLE_NAME: resources.tableName,
    UPLOADS_BUCKET: resources.bucketName,
    BULK_QUEUE_URL: resources.queues.BulkQueue ?? '',
    WEBHOOK_QUEUE_URL: resources.queues.WebhookQueue ?? '',
    AGGREGATE_QUEUE_URL: resources.queues.AggregateQueue ?? '',
    DEAD_LETTER_QUEUE_URLS: redrivenDeadLetterQueueUrls(resources.queues),
    MONITOR_QUEUE_URL: resources.queues.MonitorQueue ?? '',
    HEALTH_PROBE_URLS: Object.entries(endpoints).map(([name, url]) => `${name}=${url}`).join(','),
    POWERTOOLS_DEV: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'WARN',
  });
}

async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`port ${port} on ${host} is already in use (another Rivals instance?); set PORT to use another port`) : error),
    );
    server.listen(port, host, () => resolveListen());
  });
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

async function closeServer(server: Server) {
  if (!server.listening) return;
  const closed = new Promise<void>((r) => server.close(() => r()));
  server.closeAllConnections();
  await closed;
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
