// local runtime: AWS's own DynamoDB engine (DynamoDB Local, from the jar that amplify-dynamodb-simulator ships),
// s3rver and local-aws-sqs, each on loopback.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

// Machines here run Node 20 (Lambda runs 22); the SDK's notice about its future Node 22 floor is noise locally.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export const LOCAL_HOST = '127.0.0.1';
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
export const LOCAL_REGION = 'us-east-1';

export interface RunningEngine {
  endpoint: string;
  /** The engine's own process, where it runs in one (DynamoDB Local's java). */
  pid?: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, LOCAL_HOST, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Java 17 or newer, or a message that says what to install. */
export function checkJava(): void {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new Error('DynamoDB Local needs Java 17 or newer, and `java` was not found. Install it (Debian/Ubuntu: apt-get install -y openjdk-17-jre-headless).');
  }
  const match = /version "(\d+)/.exec(`${result.stderr}${result.stdout}`);
  const major = match ? Number(match[1]) : 0;
  if (major < 17) throw new Error(`DynamoDB Local needs Java 17 or newer; found Java ${major || 'of unknown version'}.`);
}

function dynamoJar(): { jar: string; libs: string } {
  const require = createRequire(import.meta.url);
  const emulator = join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
  return { jar: join(emulator, 'DynamoDBLocal.jar'), libs: join(emulator, 'DynamoDBLocal_lib') };
}

async function waitFor(check: () => Promise<unknown>, what: string, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    try {
      await check();
      return;
    } catch (error) {
      lastError = error;
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  throw new Error(`${what} did not start within ${timeoutMs / 1000} s: ${String(lastError)}`);
}

const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
  });

/** DynamoDB Local in memory, or in `dataDir` when given (kept between runs). */
export async function startDynamoDbLocal(options: { port?: number; dataDir?: string } = {}): Promise<RunningEngine> {
  checkJava();
  const port = options.port ?? (await freePort());
  const { jar, libs } = dynamoJar();
  const storage = options.dataDir ? ['-dbPath', options.dataDir, '-sharedDb'] : ['-inMemory'];
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const child = spawn('java', [`-Djava.library.path=${libs}`, '-Xms64m', '-jar', jar, ...storage, '-port', String(port), '-disableTelemetry'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const endpoint = `http://${LOCAL_HOST}:${port}`;
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    await waitFor(() => client.send(new ListTablesCommand({})), `DynamoDB Local ${stderr}`, child);
  } catch (error) {
    await stopChild(child);
    throw error;
  } finally {
    client.destroy();
  }
  return { endpoint, pid: child.pid, stop: () => stopChild(child) };
}

/** s3rver on loopback, its objects under `directory`. */
export async function startS3(options: { port?: number; directory: string }): Promise<RunningEngine> {
  const { default: S3rver } = await import('s3rver');
  const port = options.port ?? (await freePort());
  mkdirSync(options.directory, { recursive: true });
  const server = new S3rver({ port, address: LOCAL_HOST, directory: options.directory, silent: true, configureBuckets: [] });
  await server.run();
  return { endpoint: `http://${LOCAL_HOST}:${port}`, stop: () => server.close() };
}

/** local-aws-sqs on loopback, in memory. */
export async function startSqs(options: { port?: number } = {}): Promise<RunningEngine> {
  const { createSqsServer } = await import('local-aws-sqs');
  const port = options.port ?? (await freePort());
  const server = await createSqsServer({ port, hostname: LOCAL_HOST, emulateQueueCreationLifecycle: false });
  return {
    endpoint: `http://${LOCAL_HOST}:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
