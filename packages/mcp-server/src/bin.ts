#!/usr/bin/env node
// mcp-server: the `rivals-mcp` executable: the tools over stdio. Key and API origin from RIVALS_API_KEY and
// RIVALS_BASE_URL (or --api-key / --base-url).
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Rivals } from '@rivals/sdk';
import { createServer } from './server.js';

const { values } = parseArgs({ options: { 'api-key': { type: 'string' }, 'base-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
if (values.help) {
  process.stdout.write('Usage: rivals-mcp [--api-key sk-live-...] [--base-url https://...]\nAn MCP server over stdio; the key and origin default to RIVALS_API_KEY and RIVALS_BASE_URL.\n');
  process.exit(0);
}
const server = createServer(new Rivals({ apiKey: values['api-key'], baseUrl: values['base-url'] }));
await server.connect(new StdioServerTransport());
