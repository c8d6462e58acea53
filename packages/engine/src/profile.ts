// engine: what the ranker knows of a target, whether it comes from the knowledge base or from its homepage.
import type { SparseVector } from './text.js';

export interface TargetProfile {
  source: 'knowledge-base' | 'homepage';
  domain: string;
  name: string;
  /** The knowledge-base entry, when the target is known. */
  entity: number | null;
  /** Category -> weight in (0, 1]; the primary category has weight 1. */
  categories: Map<number, number>;
  primaryCategory: number | null;
  vector: SparseVector;
  keywords: Set<string>;
  segments: string[];
  model: string | null;
  /** The homepage's language (ISO 639-1), null when unknown or when the target is known to the knowledge base. */
  language: string | null;
}
