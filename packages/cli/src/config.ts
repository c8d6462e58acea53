// cli: where `rivals login` keeps the key: <config dir>/rivals/config.json, mode 0600 (the directory 0700). The SDK
// reads it (so the MCP server finds the key too); the CLI writes it.
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { configDir, configPath, loadConfig, type StoredConfig } from '@rivals/sdk';

export { configDir, configPath, loadConfig };
export type CliConfig = StoredConfig;

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
