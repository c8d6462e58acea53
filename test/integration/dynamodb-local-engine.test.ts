// DynamoDB Local as the local runtime starts it: it never phones home and leaves no metadata file in the project.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDynamoDbLocal, type RunningEngine } from '../../packages/local/src/engines.js';

const ROOT = join(import.meta.dirname, '..', '..');
const workDir = mkdtempSync(join(tmpdir(), 'rivals-ddb-work-'));
let engine: RunningEngine | undefined;
afterAll(async () => {
  await engine?.stop();
  rmSync(workDir, { recursive: true, force: true });
});

describe('DynamoDB Local engine', () => {
  it('starts with telemetry off: no metadata file in its working directory nor in the project', async () => {
    engine = await startDynamoDbLocal({ workDir });
    expect(readdirSync(workDir)).toEqual([]);
    expect(existsSync(join(ROOT, 'dynamodb-local-metadata.json'))).toBe(false);
    // The jar reads DDB_LOCAL_TELEMETRY at start; only "0" keeps it from asking AWS for credentials.
    const environ = readFileSync(`/proc/${engine.pid}/environ`, 'utf8').split('\0');
    expect(environ).toContain('DDB_LOCAL_TELEMETRY=0');
  });

  it('is not tracked by git, and ignored if the jar ever writes it', () => {
    const tracked = execFileSync('git', ['ls-files', 'dynamodb-local-metadata.json'], { cwd: ROOT, encoding: 'utf8' });
    expect(tracked).toBe('');
    expect(readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n')).toContain('dynamodb-local-metadata.json');
  });
});
