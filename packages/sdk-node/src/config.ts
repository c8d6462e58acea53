// sdk-node (Node only): where `rivals login` keeps the key and origin, so that every Node client (the CLI, the MCP
// server, a script) finds them: <config dir>/config.json, mode 0600. Read here; written by the CLI.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface StoredConfig {
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

/** What `rivals login` stored; empty when nothing was (or the file cannot be read). */
export async function loadConfig(env?: NodeJS.ProcessEnv): Promise<StoredConfig> {
  try {
    return JSON.parse(await readFile(configPath(env), 'utf8')) as StoredConfig;
  } catch {
    return {};
  }
}
