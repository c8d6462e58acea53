// mcp-server: what the package exports besides its bin.
export { createServer, textTable, toolError } from './server.js';
