// cli: where `rivals login` keeps the key: <config dir>/rivals/config.json, mode 0600 (the directory 0700).
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface CliConfig {
  apiKey?: string;
  baseUrl?: string;
}

/** RIVALS_CONFIG_DIR, else the platform's user config directory (XDG on Linux, Application Support on macOS, APPDATA). */
export const configDir = (env: NodeJS.ProcessEnv = process.env): string => {
  if (env.RIVALS_CONFIG_DIR) return env.RIVALS_CONFIG_DIR;
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'rivals');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'rivals');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'rivals');
};

export const configPath = (env?: NodeJS.ProcessEnv) => join(configDir(env), 'config.json');

export async function loadConfig(env?: NodeJS.ProcessEnv): Promise<CliConfig> {
  try {
    return JSON.parse(await readFile(configPath(env), 'utf8')) as CliConfig;
  } catch {
    return {};
  }
}

export async function saveConfig(config: CliConfig, env?: NodeJS.ProcessEnv): Promise<string> {
  const dir = configDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = configPath(env);
  await writeFile(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // writeFile's mode applies only to a new file: an older one keeps its mode unless set again.
  await chmod(path, 0o600);
  return path;
}

export const removeConfig = async (env?: NodeJS.ProcessEnv) => rm(configPath(env), { force: true });
