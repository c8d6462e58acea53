// The Python SDK builds and installs as its README says, offline (its build backend needs nothing downloaded), and
// the build writes nothing into the checkout: no build/, no *.egg-info, `git status` as it was.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const PACKAGE = join(process.cwd(), 'packages', 'sdk-python');
const python = process.env.PYTHON ?? 'python3';
const gitStatus = () => execFileSync('git', ['status', '--porcelain', '--ignored', '--untracked-files=all', PACKAGE], { encoding: 'utf8' }).split('\n').filter((l) => !l.includes('__pycache__')).join('\n');
/** Every build/ and *.egg-info folder under the package. */
const buildJunk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (!e.isDirectory() ? [] : e.name === 'build' || e.name.endsWith('.egg-info') ? [join(dir, e.name)] : buildJunk(join(dir, e.name))));

let scratch: string | undefined;
afterAll(() => scratch && rm(scratch, { recursive: true, force: true }));

describe('pip install ./packages/sdk-python', () => {
  it('builds a wheel and installs it, leaving the checkout clean', async () => {
    const before = gitStatus();
    scratch = await mkdtemp(join(tmpdir(), 'rivals-py-'));
    const env = { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INDEX: '1' };
    await run(python, ['-m', 'pip', 'install', '--no-cache-dir', '--target', join(scratch, 'site'), PACKAGE], { env });
    const { stdout } = await run(python, ['-c', 'import rivals, sys; print(rivals.Rivals.__name__, rivals.__file__)'], { env: { ...env, PYTHONPATH: join(scratch, 'site') }, cwd: scratch });
    expect(stdout).toMatch(new RegExp(`^Rivals ${join(scratch, 'site')}`));
    expect(existsSync(join(scratch, 'site', 'rivals', 'py.typed'))).toBe(true);
    await run(python, ['-m', 'pip', 'wheel', '--no-deps', '--no-cache-dir', '-w', join(scratch, 'wheels'), PACKAGE], { env });
    expect(readdirSync(join(scratch, 'wheels'))).toEqual(['rivals-0.1.0-py3-none-any.whl']);
    expect(buildJunk(PACKAGE)).toEqual([]);
    expect(gitStatus()).toBe(before);
  }, 120_000);
});
