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

/** The document frequency an unseen word is given: a moderately common term of the knowledge base. */
const OPEN_TERM_DOCUMENTS = 50;

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

  /** Ids of analysed terms outside the vocabulary (discovered pages' own words), assigned on first sight. */
  private readonly openTerms = new Map<string, number>();

  /**
   * A unit vector of analysed terms, each counted once, words outside the vocabulary included: how discovered
   * companies are compared with a target and with each other (two small rivals in one niche share words the
   * knowledge base never saw). Unseen words weigh as a term found in OPEN_TERM_DOCUMENTS documents would: enough to
   * matter, never more than the knowledge base's own rare terms.
   */
  vectorizeOpen(terms: Iterable<string>): SparseVector {
    const ids: number[] = [];
    for (const term of new Set(terms)) {
      let id = this.vocabulary.get(term) ?? this.openTerms.get(term);
      if (id === undefined) this.openTerms.set(term, (id = this.documentFrequency.length + this.openTerms.size));
      ids.push(id);
    }
    return this.vectorize(ids);
  }

  /** Inverse document frequency of a term id; an id outside the vocabulary is an open term. */
  private idf(id: number): number {
    const df = id < this.documentFrequency.length ? this.documentFrequency[id]! : OPEN_TERM_DOCUMENTS;
    return Math.log(1 + (this.documents - df + 0.5) / (df + 0.5));
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
      const idf = this.idf(id);
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
