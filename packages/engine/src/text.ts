// engine: text similarity. Tokens (lower case, Porter-stemmed, no stop words) weighted by BM25-style TF-IDF into
// unit vectors, so that similarity is one sparse dot product.
import { stemmer } from 'stemmer';
const STOP = new Set(
  'a an and are as at be by for from has have in into is it its of on or our that the their this to with your you we us all more most new best one platform company companies service services solution solutions software online app apps based tool tools helps help make makes using use used provider products product business businesses inc ltd llc world leading global'.split(
    ' ',
  ),
);

const stems = new Map<string, string>();
/** Porter stem, memoised: the vocabulary is small and the same words recur in every document. */
export function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) stems.set(word, (s = stemmer(word)));
  return s;
}

export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().normalize('NFKD').split(/[^a-z0-9]+/)) {
    if (raw.length < 2 || STOP.has(raw) || /^\d+$/.test(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

export type SparseVector = Map<number, number>;

export class TextIndex {
  private readonly vocabulary = new Map<string, number>();
  private readonly documentFrequency: number[] = [];
  private documents = 0;

  /** Registers a document's terms for document frequencies; call for every document before vectorising any. */
  observe(tokens: string[]): void {
    this.documents++;
    for (const token of new Set(tokens)) {
      let id = this.vocabulary.get(token);
      if (id === undefined) {
        id = this.documentFrequency.length;
        this.vocabulary.set(token, id);
        this.documentFrequency.push(0);
      }
      this.documentFrequency[id]!++;
    }
  }

  /** A unit vector of BM25-saturated term frequencies times IDF; unknown terms are dropped. */
  vectorize(tokens: string[]): SparseVector {
    const counts = new Map<number, number>();
    for (const token of tokens) {
      const id = this.vocabulary.get(token);
      if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
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

  termId(token: string): number | undefined {
    return this.vocabulary.get(token);
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
