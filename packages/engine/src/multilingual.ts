// engine: reading a homepage written in German, French, Spanish, Portuguese, Italian or Dutch in the knowledge base's
// English. The page's words are folded (case, accents), cut to a light stem of their language, looked up in the
// lexicon (phrases first, then words, then the parts of a German or Dutch compound) and replaced by the English terms
// the categories use; the language's function words are dropped; any other word is kept as it is, since many are
// shared with English (Software, Marketing, Hotel, Pizza). The result is analysed like an English page.
import { FUNCTION_WORDS, type PlacedLanguage } from '@rivals/core';
import { LEXICON } from './lexicon.js';

const TRANSLATED = ['de', 'fr', 'es', 'pt', 'it', 'nl'] as const;
type TranslatedLanguage = (typeof TRANSLATED)[number];
const isTranslated = (language: string | null | undefined): language is TranslatedLanguage => (TRANSLATED as readonly string[]).includes(language ?? '');

/**
 * Compounds are looked for in these languages, in words of this many characters (longer ones are no real compound, and
 * splitting costs the square of the length), split into parts at least this long.
 */
const COMPOUNDING = new Set<TranslatedLanguage>(['de', 'nl']);
const MIN_COMPOUND_CHARS = 7;
const MAX_COMPOUND_CHARS = 40;
const MIN_PART_CHARS = 3;
/** What is left of an elided article or preposition once apostrophes split words (l'école, dell'azienda, d'água). */
const ELISIONS = ['a', 'd', 'l', 'c', 'j', 'n', 's', 'qu', 'dell', 'nell', 'all', 'sull', 'dall', 'un'];
/** Longest lexicon phrase, in words. */
const MAX_PHRASE_WORDS = 4;
/** Words remembered per language (their English, or that they have none); a hostile page cannot grow it further. */
const MAX_CACHED_WORDS = 50_000;

/** Lower case, accents folded (é → e, ß → ss), apostrophes and punctuation as spaces. */
export function foldWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * A light stem: plural, gender and case endings cut, so that Schule/Schulen, école/écoles, escuela/escuelas,
 * solução/soluções, scuola/scuole and school/scholen meet. Both the lexicon and the page go through it, so it only has to
 * be consistent, not linguistically exact.
 */
export function lightStem(word: string, language: TranslatedLanguage): string {
  if (word.length <= 3) return word;
  let w = word;
  switch (language) {
    case 'de':
      w = w.replace(/(?:ern|em|en|er|es|e|n|s)$/, '');
      break;
    case 'fr':
      w = w.replace(/aux$/, 'al').replace(/[sx]$/, '').replace(/e$/, '');
      break;
    case 'es':
      w = w.replace(/(?<=[^aeiou])es$/, '').replace(/s$/, '').replace(/[aeo]$/, '');
      break;
    case 'pt':
      w = w.replace(/oes$|aes$/, 'ao').replace(/ais$/, 'al').replace(/eis$/, 'el').replace(/s$/, '').replace(/[aeo]$/, '');
      break;
    case 'it':
      w = w.replace(/(?<=[cg])h(?=[ei]$)/, '').replace(/[aeio]$/, '');
      break;
    case 'nl':
      w = w.replace(/(?:en|s|e)$/, '').replace(/([aeou])\1/g, '$1').replace(/z$/, 's').replace(/v$/, 'f').replace(/([^aeiou])\1$/, '$1');
      break;
  }
  return w.length >= 2 ? w : word;
}

interface LanguageLexicon {
  words: Map<string, string>;
  phrases: Map<string, string>;
  stop: Set<string>;
  cache: Map<string, string | null>;
}

const lexicons = new Map<TranslatedLanguage, LanguageLexicon>();

/** The lexicon of one language, built on first use from the shared table. */
function lexiconOf(language: TranslatedLanguage): LanguageLexicon {
  let lexicon = lexicons.get(language);
  if (lexicon) return lexicon;
  const column = TRANSLATED.indexOf(language);
  const words = new Map<string, string>();
  const phrases = new Map<string, string>();
  const add = (map: Map<string, string>, key: string, english: string) => {
    const known = map.get(key);
    if (!known) map.set(key, english);
    else if (!known.split(' ').includes(english.split(' ')[0]!)) map.set(key, `${known} ${english}`);
  };
  for (const line of LEXICON.split('\n')) {
    const at = line.indexOf('=');
    if (at < 0) continue;
    const english = line.slice(0, at).trim();
    const forms = line.slice(at + 1).split('|')[column]?.split(',') ?? [];
    for (const form of forms) {
      const folded = foldWords(form);
      const parts = folded.map((w) => lightStem(w, language));
      // A word under its stem and as written (a stem can miss: cursus/cursussen), a phrase under its words' stems.
      if (parts.length === 1) {
        add(words, parts[0]!, english);
        add(words, folded[0]!, english);
      } else if (parts.length > 1 && parts.length <= MAX_PHRASE_WORDS) add(phrases, parts.join(' '), english);
    }
  }
  const stop = new Set([...FUNCTION_WORDS[language as PlacedLanguage], ...ELISIONS].flatMap((w) => foldWords(w)));
  lexicon = { words, phrases, stop, cache: new Map() };
  lexicons.set(language, lexicon);
  return lexicon;
}

/** The English of one stemmed word: the lexicon's, or that of its parts when it is a compound of known words. */
function wordEnglish(stemmed: string, word: string, language: TranslatedLanguage, lexicon: LanguageLexicon): string | null {
  const direct = lexicon.words.get(stemmed) ?? lexicon.words.get(word);
  if (direct) return direct;
  if (!COMPOUNDING.has(language) || word.length < MIN_COMPOUND_CHARS || word.length > MAX_COMPOUND_CHARS) return null;
  let english = lexicon.cache.get(word);
  if (english === undefined) {
    english = splitCompound(word, language, lexicon, 0);
    if (lexicon.cache.size < MAX_CACHED_WORDS) lexicon.cache.set(word, english);
  }
  return english;
}

/** Linking elements between the parts of a compound (Buchhaltung-s-software, Zonne-panelen). */
const LINKS: Record<string, string[]> = { de: ['', 's', 'es', 'n', 'en', 'er'], nl: ['', 's', 'en', 'e'] };

/**
 * A compound as the English of its parts, longest known head first, the tail known or itself a compound (two levels
 * at most); null when it does not split into known words. At most a few hundred map lookups for a long word.
 */
function splitCompound(word: string, language: TranslatedLanguage, lexicon: LanguageLexicon, depth: number): string | null {
  const known = (part: string) => lexicon.words.get(lightStem(part, language)) ?? lexicon.words.get(part);
  for (let cut = word.length - MIN_PART_CHARS; cut >= MIN_PART_CHARS; cut--) {
    const tail = word.slice(cut);
    const tailEnglish = known(tail) ?? (depth < 1 && tail.length >= MIN_COMPOUND_CHARS ? splitCompound(tail, language, lexicon, depth + 1) : null);
    if (!tailEnglish) continue;
    const head = word.slice(0, cut);
    for (const link of LINKS[language]!) {
      if (!head.endsWith(link) || head.length - link.length < MIN_PART_CHARS) continue;
      const headEnglish = known(head.slice(0, head.length - link.length));
      if (headEnglish) return `${headEnglish} ${tailEnglish}`;
    }
  }
  return null;
}

/** A short text names its language by its vocabulary when at least this many words are of one language's lexicon. */
const MIN_LEXICON_WORDS = 2;

/**
 * The translated language whose lexicon knows the most words of a text (words spelt as their English, like
 * "software", say nothing; a compound of known words counts as two), or null unless it knows at least two and twice
 * as many as any other. For pages too short
 * for their function words to tell (a title and two headings, no `lang`).
 */
export function languageByLexicon(text: string): TranslatedLanguage | null {
  const words = [...new Set(foldWords(text))].filter((w) => w.length > 3);
  const counts = TRANSLATED.map((language) => {
    const lexicon = lexiconOf(language);
    let known = 0;
    for (const w of words) {
      const stemmed = lightStem(w, language);
      const english = wordEnglish(stemmed, w, language, lexicon);
      if (english === null || english.split(' ').includes(w)) continue;
      // A compound of known words (Sprachschule) is two words of the language.
      known += lexicon.words.has(stemmed) || lexicon.words.has(w) ? 1 : 2;
    }
    return known;
  });
  const best = Math.max(...counts);
  const n = counts.indexOf(best);
  const second = Math.max(...counts.filter((_, i) => i !== n));
  return best >= MIN_LEXICON_WORDS && best >= 2 * second ? TRANSLATED[n]! : null;
}

/**
 * A page's text in the knowledge base's English, when it is written in one of the six translated languages; any other
 * text is returned as it is. Linear in the text (phrases of up to four words, compounds of bounded length).
 */
export function toEnglish(text: string, language: string | null | undefined): string {
  if (!isTranslated(language)) return text;
  const lexicon = lexiconOf(language);
  const words = foldWords(text);
  const stems = words.map((w) => lightStem(w, language));
  const out: string[] = [];
  for (let i = 0; i < words.length; ) {
    let matched = 0;
    for (let n = Math.min(MAX_PHRASE_WORDS, words.length - i); n >= 2 && !matched; n--) {
      const english = lexicon.phrases.get(stems.slice(i, i + n).join(' '));
      if (english) {
        out.push(english);
        matched = n;
      }
    }
    if (matched) {
      i += matched;
      continue;
    }
    const word = words[i]!;
    if (!lexicon.stop.has(word)) out.push(wordEnglish(stems[i]!, word, language, lexicon) ?? word);
    i++;
  }
  return out.join(' ');
}

/**
 * Where a language is the language of business (headquarters, ISO 3166-1): a company writing in it most likely sells
 * there first, and its rivals are often from there too (a Brazilian neobank's are Brazilian).
 */
const MARKETS: Readonly<Record<TranslatedLanguage, readonly string[]>> = {
  de: ['DE', 'AT', 'CH', 'LI', 'LU'],
  fr: ['FR', 'BE', 'CH', 'LU', 'MC', 'MA', 'SN', 'CI', 'TN'],
  es: ['ES', 'MX', 'AR', 'CO', 'CL', 'PE', 'UY', 'EC', 'VE', 'GT', 'CR', 'PA', 'DO', 'BO', 'PY', 'SV', 'HN', 'NI', 'PR'],
  pt: ['PT', 'BR', 'AO', 'MZ'],
  it: ['IT', 'CH', 'SM'],
  nl: ['NL', 'BE'],
};
const marketSets = new Map(TRANSLATED.map((l) => [l, new Set(MARKETS[l])]));

/** The countries where a translated language is spoken in business; null for English, unknown or other languages. */
export function marketsOf(language: string | null | undefined): ReadonlySet<string> | null {
  return isTranslated(language) ? marketSets.get(language)! : null;
}
