#!/usr/bin/env node
// mcp-server: the `rivals-mcp` executable: the tools over stdio. The key and API origin from --api-key / --base-url,
// else RIVALS_API_KEY / RIVALS_BASE_URL, else what `rivals login` stored.
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadConfig, Rivals } from '@rivals/sdk';
import { createServer } from './server.js';

const { values } = parseArgs({ options: { 'api-key': { type: 'string' }, 'base-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
if (values.help) {
  process.stdout.write(
    'Usage: rivals-mcp [--api-key sk-live-...] [--base-url https://...]\nAn MCP server over stdio. The key and origin default to RIVALS_API_KEY and RIVALS_BASE_URL, then to what `rivals login` stored.\n',
  );
  process.exit(0);
}
const stored = await loadConfig();
const apiKey = values['api-key'] ?? (process.env.RIVALS_API_KEY || stored.apiKey);
const baseUrl = values['base-url'] ?? (process.env.RIVALS_BASE_URL || stored.baseUrl);
if (!apiKey) process.stderr.write('rivals-mcp: no API key: run `rivals login`, or set RIVALS_API_KEY; every tool will answer missing_api_key.\n');
const server = createServer(new Rivals({ apiKey, baseUrl }));
await server.connect(new StdioServerTransport());
