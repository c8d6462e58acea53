// local runtime: what tells one running instance from another. A lock on the data directory (one instance per
// DATA_DIR), and the files an instance leaves for the operator command, kept per port: `.local/<port>/runtime.json`,
// `.local/<port>/dev-api-key` (and `.local/dev-api-key` for the default port, the one the README shows) and
// `.local/<port>/aws-credentials` (the run's random credentials for the local engines).
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProvisionedResources } from './provision.js';
import type { LocalCredentials } from './s3-auth.js';

export const DEFAULT_PORT = 3000;
const LOCK_FILE = 'rivals.lock';

/** True while a process with this id exists (EPERM: it exists, under another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const readJson = <T>(file: string): T | null => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
};

/**
 * Holds `dataDir` for this process, or says which instance holds it. The lock is a file created exclusively with the
 * holder's pid; a lock whose process is gone is stale and taken over, so a crash (even `kill -9`) never blocks the next
 * start. (proper-lockfile judges staleness by the lock's age, which would make a restart right after a crash wait.)
 * Returns the release function.
 */
export function lockDataDir(dataDir: string, port: number): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, LOCK_FILE);
  const mine = { pid: process.pid, port };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(mine), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readJson<{ pid: number; port: number }>(file);
      if (attempt === 0 && (!holder || !isAlive(holder.pid))) {
        rmSync(file, { force: true });
        continue;
      }
      throw new Error(
        `DATA_DIR ${dataDir} is in use by another Rivals instance${holder ? ` (pid ${holder.pid}, port ${holder.port})` : ''}. Stop it first, or set another DATA_DIR.`,
      );
    }
  }
  return () => {
    if (readJson<{ pid: number }>(file)?.pid === process.pid) rmSync(file, { force: true });
  };
}

export interface InstanceRecord {
  url: string;
  pid: number;
  port: number;
  dataDir: string | null;
  endpoints: { dynamodb: string; s3: string; sqs: string };
  /** The local API Gateway control endpoint (FlushStageAuthorizersCache), for the operator command. */
  gatewayControl?: string;
  resources: ProvisionedResources;
  startedAt: string;
}

/** A file only its owner may read: created 0600, and made 0600 if it was there before with another mode. */
function writeSecret(path: string, text: string) {
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
}

const instanceDir = (stateDir: string, port: number) => join(stateDir, String(port));
export const runtimeFile = (stateDir: string, port: number) => join(instanceDir(stateDir, port), 'runtime.json');
export const keyFile = (stateDir: string, port: number) => join(instanceDir(stateDir, port), 'dev-api-key');

/**
 * The run's random credentials for the local engines, beside the key, as an AWS shared credentials file (profile
 * `default`), so that the AWS CLI can use them: AWS_SHARED_CREDENTIALS_FILE=.local/3000/aws-credentials.
 */
export const credentialsFile = (stateDir: string, port: number) => join(instanceDir(stateDir, port), 'aws-credentials');

/** The credentials of the instance on `port`, as it wrote them. */
export function readCredentials(stateDir: string, port: number): LocalCredentials {
  const text = readFileSync(credentialsFile(stateDir, port), 'utf8');
  const value = (name: string) => new RegExp(`^${name}\\s*=\\s*(\\S+)`, 'm').exec(text)?.[1];
  const accessKeyId = value('aws_access_key_id');
  const secretAccessKey = value('aws_secret_access_key');
  if (!accessKeyId || !secretAccessKey) throw new Error(`${credentialsFile(stateDir, port)} holds no credentials`);
  return { accessKeyId, secretAccessKey };
}

/** Writes the instance's files (the key and the engines' credentials readable by their owner only); returns where its key is. */
export function writeInstance(stateDir: string, record: InstanceRecord, apiKey: string, credentials?: LocalCredentials): string {
  mkdirSync(instanceDir(stateDir, record.port), { recursive: true });
  const keyPaths = [keyFile(stateDir, record.port), ...(record.port === DEFAULT_PORT ? [join(stateDir, 'dev-api-key')] : [])];
  for (const path of keyPaths) writeSecret(path, `${apiKey}\n`);
  if (credentials)
    writeSecret(credentialsFile(stateDir, record.port), `[default]\naws_access_key_id = ${credentials.accessKeyId}\naws_secret_access_key = ${credentials.secretAccessKey}\n`);
  writeFileSync(runtimeFile(stateDir, record.port), `${JSON.stringify(record, null, 2)}\n`);
  return keyPaths.at(-1)!;
}

/** Removes the instance's runtime.json, if it is still this process's. The key files stay (the key is shown once). */
export function removeInstance(stateDir: string, port: number): void {
  const file = runtimeFile(stateDir, port);
  if (readJson<InstanceRecord>(file)?.pid === process.pid) rmSync(file, { force: true });
}

export const NOT_RUNNING = 'the local service is not running (start it with npm start)';

/** The instance serving `port`: its runtime.json names a live process and its URL answers; otherwise NOT_RUNNING. */
export async function runningInstance(stateDir: string, port: number): Promise<InstanceRecord> {
  const record = readJson<InstanceRecord>(runtimeFile(stateDir, port));
  const answers = async (url: string) => {
    try {
      await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(3000) });
      return true;
    } catch {
      return false;
    }
  };
  if (!record || !isAlive(record.pid) || !(await answers(record.url))) throw new Error(`${NOT_RUNNING}; looked on port ${port}`);
  return record;
}
