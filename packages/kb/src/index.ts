// kb: the compiled knowledge base, loaded once per process. Lambda bundles copy the index beside the handler and
// point KB_INDEX_PATH at it; everywhere else it is read from this package's dist/.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { KbIndex } from './schema.js';

export * from './schema.js';
export * from './text.js';
export * from './merge.js';

export function knowledgeBasePath(): string {
  return process.env.KB_INDEX_PATH ?? fileURLToPath(new URL('../dist/kb-index.json', import.meta.url));
}

const loaded = new Map<string, KbIndex>();
/** The compiled index at `path`, read and parsed once per process. */
export function loadKnowledgeBase(path = knowledgeBasePath()): KbIndex {
  let index = loaded.get(path);
  if (!index) loaded.set(path, (index = JSON.parse(readFileSync(path, 'utf8')) as KbIndex));
  return index;
}
