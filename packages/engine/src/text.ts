// engine: text similarity. Documents arrive as term ids (analysed by the knowledge base's build, kb/text.ts); terms
// are weighted by BM25-style TF-IDF into unit vectors, so that similarity is one sparse dot product.
import { tokenize } from '@rivals/kb';

export { tokenize };

export type SparseVector = Map<number, number>;

export class TextIndex {
  private readonly vocabulary: Map<string, number>;
  private readonly documentFrequency: Uint32Array;
  private readonly documents: number;

  /** Document frequencies over every document (entries and categories). */
  constructor(vocabulary: string[], documents: number[][]) {
    this.vocabulary = new Map(vocabulary.map((term, id) => [term, id]));
    this.documentFrequency = new Uint32Array(vocabulary.length);
    this.documents = documents.length;
    for (const terms of documents) for (const id of new Set(terms)) this.documentFrequency[id]!++;
  }

  /** Term ids of a text the build never saw (a homepage); terms outside the vocabulary say nothing here. */
  termIds(text: string): number[] {
    const ids: number[] = [];
    for (const term of tokenize(text)) {
      const id = this.vocabulary.get(term);
      if (id !== undefined) ids.push(id);
    }
    return ids;
  }

  /** A unit vector of BM25-saturated term frequencies times IDF. */
  vectorize(terms: number[]): SparseVector {
    const counts = new Map<number, number>();
    for (const id of terms) counts.set(id, (counts.get(id) ?? 0) + 1);
    const vector: SparseVector = new Map();
    let norm = 0;
    for (const [id, tf] of counts) {
      const df = this.documentFrequency[id]!;
      const idf = Math.log(1 + (this.documents - df + 0.5) / (df + 0.5));
      const weight = ((tf * 2.2) / (tf + 1.2)) * idf;
      vector.set(id, weight);
      norm += weight * weight;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [id, w] of vector) vector.set(id, w / norm);
    return vector;
  }
}

export function cosine(a: SparseVector, b: SparseVector): number {
  const [small, large] = a.size < b.size ? [a, b] : [b, a];
  let sum = 0;
  for (const [id, w] of small) {
    const other = large.get(id);
    if (other !== undefined) sum += w * other;
  }
  return sum;
}
