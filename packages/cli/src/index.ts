// cli: what the package exports besides its bin: the runner and the exit-code table.
export { run, type CliIo } from './program.js';
export { EXIT, EXIT_CODES_HELP, exitCodeFor } from './exit-codes.js';
export { configDir, configPath, loadConfig, saveConfig } from './config.js';
