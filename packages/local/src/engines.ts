// local runtime: AWS's own DynamoDB engine (DynamoDB Local, from the jar that amplify-dynamodb-simulator ships),
// s3rver and local-aws-sqs, each on loopback only (DynamoDB Local through a launcher that binds it there; s3rver
// behind a front that checks every request's signature, s3-auth.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createS3AuthFront, type LocalCredentials } from './s3-auth.js';

// Machines here run Node 20 (Lambda runs 22); the SDK's notice about its future Node 22 floor is noise locally.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export const LOCAL_HOST = '127.0.0.1';
/** Fixed credentials, for the test suite's own engines only; the local runtime makes random ones per run. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
export const LOCAL_REGION = 'us-east-1';

/** Credentials for one run of the local runtime: random, so that nothing else on the machine knows them. */
export function randomCredentials(): LocalCredentials {
  return { accessKeyId: `LOCAL${randomBytes(10).toString('hex').toUpperCase()}`, secretAccessKey: randomBytes(30).toString('base64url') };
}

export interface RunningEngine {
  endpoint: string;
  /** The engine's own process, where it runs in one (DynamoDB Local's java). */
  pid?: number;
  stop(): Promise<void>;
}

export interface RunningS3 extends RunningEngine {
  /** s3rver's object events, in the shape of S3 event notifications. */
  onObjectEvent(listener: (event: import('aws-lambda').S3Event) => void): void;
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

/**
 * Kills `pid` when this process goes away, even by SIGKILL (an IDE's stop button, a crashed runtime): a shell beside it
 * checks its parent, this process, every second. It is killed in turn when the watched process exits.
 */
function watchdog(pid: number): ChildProcess {
  const script = 'while kill -0 "$PPID" 2>/dev/null; do sleep 1; done; kill -KILL "$1" 2>/dev/null';
  const shell = spawn('/bin/sh', ['-c', script, 'rivals-watchdog', String(pid)], { detached: true, stdio: 'ignore' });
  shell.unref();
  return shell;
}

/** Signals the child's process group (it leads one: spawned detached), so that a Ctrl-C reaches only this process. */
const signalGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
};

const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    signalGroup(child, 'SIGTERM');
    setTimeout(() => signalGroup(child, 'SIGKILL'), 3000).unref();
  });

export interface DynamoDbLocalOptions {
  port?: number;
  /** Keep the tables here between runs; in memory when absent. */
  dataDir?: string;
  /** Working directory of the Java process; a temporary one (removed on stop) when absent. */
  workDir?: string;
  /** Called when DynamoDB Local exits without being asked to, with what it last said. */
  onExit?: (reason: string) => void;
}

/** The launcher that binds DynamoDB Local to loopback, a single-file Java program. */
const LOOPBACK_LAUNCHER = fileURLToPath(new URL('../java/LoopbackDynamoDbLocal.java', import.meta.url));
const LAUNCHER_CACHE = fileURLToPath(new URL('../../../node_modules/.cache/rivals-dynamodb-launcher', import.meta.url));

/**
 * The `java` arguments that run the loopback launcher: its class, compiled once by `javac` into node_modules/.cache
 * (keyed by the source's hash) where a JDK is installed; else the source itself, which `java` compiles as it starts
 * (a few seconds more at every start).
 */
function loopbackLauncher(jar: string, libs: string): string[] {
  const classPath = [jar, join(libs, '*')].join(':');
  const source = readFileSync(LOOPBACK_LAUNCHER);
  const dir = join(LAUNCHER_CACHE, createHash('sha256').update(source).digest('hex').slice(0, 16));
  if (!existsSync(join(dir, 'LoopbackDynamoDbLocal.class'))) {
    mkdirSync(LAUNCHER_CACHE, { recursive: true });
    const scratch = mkdtempSync(join(LAUNCHER_CACHE, 'build-'));
    const built = spawnSync('javac', ['-nowarn', '-cp', classPath, '-d', scratch, LOOPBACK_LAUNCHER], { stdio: 'ignore' });
    try {
      if (built.error || built.status !== 0) return ['-cp', classPath, LOOPBACK_LAUNCHER];
      renameSync(scratch, dir);
    } catch {
      // Another start compiled it meanwhile: use theirs.
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    if (!existsSync(join(dir, 'LoopbackDynamoDbLocal.class'))) return ['-cp', classPath, LOOPBACK_LAUNCHER];
  }
  return ['-cp', [dir, classPath].join(':'), 'LoopbackDynamoDbLocal'];
}

/** DynamoDB Local in memory, or in `dataDir` when given (kept between runs), listening on 127.0.0.1 only. */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<RunningEngine> {
  checkJava();
  const port = options.port ?? (await freePort());
  const { jar, libs } = dynamoJar();
  const storage = options.dataDir ? ['-dbPath', options.dataDir, '-sharedDb'] : ['-inMemory'];
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // The jar writes dynamodb-local-metadata.json into its working directory: keep it out of the project.
  const scratch = options.workDir ? null : mkdtempSync(join(tmpdir(), 'rivals-dynamodb-'));
  // `-disableTelemetry` alone does not stop it: at start it still writes its metadata file and asks AWS (Cognito, then
  // Pinpoint) for credentials unless DDB_LOCAL_TELEMETRY is 0. It never phones home with both.
  const child = spawn('java', [`-Djava.library.path=${libs}`, '-Xms64m', ...loopbackLauncher(jar, libs), ...storage, '-port', String(port), '-disableTelemetry'], {
    cwd: options.workDir ?? scratch!,
    env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' },
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const guard = watchdog(child.pid!);
  let stderr = '';
  let stopping = false;
  let running = false;
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  child.once('exit', (code, signal) => {
    guard.kill();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    if (running && !stopping) options.onExit?.(`exited with ${signal ?? `code ${code}`}${stderr.trim() ? `: ${stderr.trim()}` : ''}`);
  });
  const stop = () => ((stopping = true), stopChild(child));
  const endpoint = `http://${LOCAL_HOST}:${port}`;
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    await waitFor(() => client.send(new ListTablesCommand({})), `DynamoDB Local ${stderr}`, child);
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.destroy();
  }
  running = true;
  return { endpoint, pid: child.pid, stop };
}

/**
 * s3rver on loopback, its objects under `directory`, reached only through the signature-checking front (s3-auth.ts)
 * on `port`: a request not signed with `credentials` (LOCAL_CREDENTIALS when absent) is refused with 403.
 */
export async function startS3(options: { port?: number; directory: string; credentials?: LocalCredentials }): Promise<RunningS3> {
  const { default: S3rver } = await import('s3rver');
  const { default: AWSAccount } = await import('s3rver/lib/models/account.js');
  const credentials = options.credentials ?? LOCAL_CREDENTIALS;
  // s3rver knows one key pair; the run's pair is added to its account, so that what the front passes is accepted.
  AWSAccount.DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
  const port = options.port ?? (await freePort());
  const innerPort = await freePort();
  mkdirSync(options.directory, { recursive: true });
  const server = new S3rver({ port: innerPort, address: LOCAL_HOST, directory: options.directory, silent: true, configureBuckets: [] });
  await server.run();
  const front = createS3AuthFront({ target: { host: LOCAL_HOST, port: innerPort }, credentials, region: LOCAL_REGION });
  await new Promise<void>((resolve, reject) => front.once('error', reject).listen(port, LOCAL_HOST, () => resolve()));
  const stop = async () => {
    front.closeAllConnections();
    await new Promise<void>((resolve) => front.close(() => resolve()));
    await server.close();
  };
  return { endpoint: `http://${LOCAL_HOST}:${port}`, stop, onObjectEvent: (listener) => void server.on('event', listener) };
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
