// kb: the text analyzer of the knowledge base. The build turns every entry and category into terms with it, and the
// engine analyses a homepage with the same function, so that both sides speak the same vocabulary.
import { stemmer } from 'stemmer';

/** Words that say nothing about what a company does. */
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

/** Lower-cased, accent-folded, stemmed terms of a text, without stop words, numbers and single letters. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().normalize('NFKD').split(/[^a-z0-9]+/)) {
    if (raw.length < 2 || STOP.has(raw) || /^\d+$/.test(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

/** The text of an entry, as the engine compares it: description, keywords (twice) and its categories' names. */
export const entityText = (e: { description: string; keywords: string[] }, categoryNames: string[]) =>
  [e.description, e.keywords.join(' '), e.keywords.join(' '), categoryNames.join(' ')].join(' ');

/** The text of a category: its name twice, description and terms. */
export const categoryText = (c: { name: string; description: string; terms: string[] }) => [c.name, c.name, c.description, c.terms.join(' ')].join(' ');
