#!/usr/bin/env node
// mcp-server: runs the TypeScript source through tsx from the repository (a published build points its bin at dist/bin.js).
import { register } from 'tsx/esm/api';

register();
await import('../src/bin.ts');
