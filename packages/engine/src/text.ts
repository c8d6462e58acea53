// engine: text similarity. Documents arrive as term ids (analysed by the knowledge base's build, kb/text.ts); terms
// are weighted by BM25-style TF-IDF into unit vectors, so that similarity is one sparse dot product.
import { tokenize } from '@rivals/kb';

export { tokenize };

/** A unit vector as two parallel arrays sorted by term id: compact (a few bytes a term) and a linear-time dot product. */
export interface SparseVector {
  readonly ids: Int32Array;
  readonly weights: Float32Array;
  readonly size: number;
}

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
    const ids = Int32Array.from(counts.keys()).sort();
    const weights = new Float32Array(ids.length);
    let norm = 0;
    ids.forEach((id, n) => {
      const tf = counts.get(id)!;
      const df = this.documentFrequency[id]!;
      const idf = Math.log(1 + (this.documents - df + 0.5) / (df + 0.5));
      const weight = ((tf * 2.2) / (tf + 1.2)) * idf;
      weights[n] = weight;
      norm += weight * weight;
    });
    norm = Math.sqrt(norm) || 1;
    for (let n = 0; n < weights.length; n++) weights[n]! /= norm;
    return { ids, weights, size: ids.length };
  }
}

/** Dot product of two unit vectors (their cosine): one merge of the two sorted id lists. */
export function cosine(a: SparseVector, b: SparseVector): number {
  let sum = 0;
  let i = 0;
  let j = 0;
  while (i < a.size && j < b.size) {
    const x = a.ids[i]!;
    const y = b.ids[j]!;
    if (x === y) sum += a.weights[i++]! * b.weights[j++]!;
    else if (x < y) i++;
    else j++;
  }
  return sum;
}
