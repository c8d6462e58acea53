// kb: the compiled knowledge base, loaded once per process. Lambda bundles copy the index beside the handler and
// point KB_INDEX_PATH at it; everywhere else it is read from this package's dist/.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { KbIndex } from './schema.js';

export * from './schema.js';
export * from './text.js';

export function knowledgeBasePath(): string {
  return process.env.KB_INDEX_PATH ?? fileURLToPath(new URL('../dist/kb-index.json', import.meta.url));
}

let cached: KbIndex | undefined;
export function loadKnowledgeBase(path = knowledgeBasePath()): KbIndex {
  if (cached && path === knowledgeBasePath()) return cached;
  const index = JSON.parse(readFileSync(path, 'utf8')) as KbIndex;
  if (path === knowledgeBasePath()) cached = index;
  return index;
}
