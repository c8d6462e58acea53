// core: the language a homepage is written in, from what it declares (`<html lang>`, og:locale) and from its text.
// The crawler records it on every profile and the engine places a page by it. Text is recognised for the languages the
// engine can place (English and six European languages) by their function words and spelling; a page in any other
// language keeps the language it declares.

/** Languages whose pages the engine reads in their own words (ISO 639-1). */
export const PLACED_LANGUAGES = ['en', 'de', 'fr', 'es', 'pt', 'it', 'nl'] as const;
export type PlacedLanguage = (typeof PLACED_LANGUAGES)[number];

/**
 * The commonest short words of each language: articles, prepositions, pronouns, conjunctions and the verbs "to be" and
 * "to have". Homepage copy is full of them ("für Ihr Unternehmen", "pour votre entreprise"); they are also the stop
 * words of each language when the engine reads a page.
 */
export const FUNCTION_WORDS: Readonly<Record<PlacedLanguage, readonly string[]>> = {
  en: 'the and of to for with your our we you is are in on from by this that at as be can it its all how what who us about get more than into any'.split(' '),
  de: 'der die das den dem des und oder für fur mit ist sind ihr ihre ihren ihrem ihrer wir sie ein eine einen einem einer zu zum zur von vom im in auf bei aus nach über uber unter unsere unser unseren unserem unserer auch sich mehr nicht noch nur wie was wer alle allen jetzt hier sowie durch ohne gegen bis seit werden wird haben hat kann können konnen als dass dies diese dieser jeder jede ganz schon sehr'.split(' '),
  fr: 'le la les de des et pour avec est sont vos votre nous vous une un du au aux dans sur par en qui que ou plus notre nos ses son sa leur leurs ce cette ces tout tous toutes chez entre sans sous depuis vers avoir être etre été ete fait faire très tres aussi comme mais pas ne'.split(' '),
  es: 'el la los las de y para con es son su sus nuestro nuestra nuestros nuestras una un del al en por que o más mas tu tus este esta estos estas todo todos todas entre sin sobre desde hasta como pero muy también tambien ser estar hacer hace usted ustedes le les se lo'.split(' '),
  pt: 'o a os as de e para com é são sao seu sua seus suas nosso nossa nossos nossas uma um do da dos das no na nos nas em por que ou mais você voce vocês voces este esta estes estas todo todos toda todas entre sem sobre desde até ate como mas muito também tambem ser estar fazer ao aos pela pelo pelas pelos'.split(' '),
  it: 'il lo la gli le di e per con è sono tuo tua tuoi tue nostro nostra nostri nostre una un uno del dello della dei degli delle al allo alla ai agli alle nel nello nella nei negli nelle che o più piu questo questa questi queste tutto tutti tutte tra fra senza su dal dalla dai sul sulla come ma molto anche essere fare vostro vostra vostri vostre sua suo suoi'.split(' '),
  nl: 'de het een en van voor met is zijn uw jouw je jij onze ons in op bij door naar aan wij we ook dat die niet of meer dan deze dit alle als om tot uit over onder zonder tegen hoe wat wie worden wordt hebben heeft kan kunnen al zo heel nu hier'.split(' '),
};

/** Spellings of a word that tell its language (the word lower-cased; accents kept). */
const SPELLINGS: Readonly<Record<PlacedLanguage, RegExp>> = {
  en: /(?:ing|tion|ness|ship|ity)s?$|^wh|^th/,
  de: /[äöüß]|sch|(?:ung|keit|heit|lich|isch)(?:en|e)?$|^(?:ge|ver|be|zu)[a-z]{4}|tz/,
  fr: /[àâèêëîôùûç]|œ|^(?:[dlqsjn]|qu)'|(?:eau|eux|aux|ique|ité|ées?)s?$/,
  es: /[ñ¿¡]|(?:ción|ciones|dad|dades|ía|ías)$|^ll/,
  pt: /[ãõ]|(?:ção|ções|dade|dades)$|lh|nh/,
  it: /(?:zione|zioni|tà)$|^(?:dell|nell|all|sull)'|cch|gn[aoi]$|zz[aio]$/,
  nl: /ij|(?:aa|oo|uu|ee)[^aeiou]|(?:heid|lijk)(?:en)?$|tje$/,
};

const WORD_LANGUAGES = new Map<string, PlacedLanguage[]>();
for (const language of PLACED_LANGUAGES) {
  for (const word of FUNCTION_WORDS[language]) {
    const list = WORD_LANGUAGES.get(word) ?? [];
    if (!list.includes(language)) list.push(language);
    WORD_LANGUAGES.set(word, list);
  }
}

/** Characters of text looked at: a homepage's title, description and headings say which language it is in. */
const MAX_TEXT_CHARS = 4_000;
/** Evidence below this (about three unambiguous function words) is too little to name a language from the text. */
const MIN_SCORE = 3;

export interface LanguageGuess {
  language: PlacedLanguage;
  /** Evidence for it, and for the runner-up. */
  score: number;
  runnerUp: number;
  /** Evidence for every placed language. */
  scores: ReadonlyMap<PlacedLanguage, number>;
}

/**
 * The placed language a text is most likely written in, or null when the evidence is thin or split. A function word
 * counts 1 divided by the number of languages it belongs to ("de" is Spanish, Portuguese, French and Dutch); a telling
 * spelling counts half. Linear in the text, capped at 4 000 characters.
 */
export function guessLanguage(text: string): LanguageGuess | null {
  const lower = text.slice(0, MAX_TEXT_CHARS).toLowerCase();
  const scores = new Map<PlacedLanguage, number>(PLACED_LANGUAGES.map((l) => [l, 0]));
  for (const word of lower.split(/[^\p{L}']+/u)) {
    const languages = WORD_LANGUAGES.get(word.replace(/^'+|'+$/g, ''));
    if (languages) for (const l of languages) scores.set(l, scores.get(l)! + 1 / languages.length);
    else if (word.length > 3) for (const l of PLACED_LANGUAGES) if (SPELLINGS[l].test(word)) scores.set(l, scores.get(l)! + 0.5);
  }
  const ranked = [...scores].sort((a, b) => b[1] - a[1]);
  const [language, score] = ranked[0]!;
  const runnerUp = ranked[1]![1];
  if (score < MIN_SCORE || score < runnerUp * 1.5) return null;
  return { language, score, runnerUp, scores };
}

/** The ISO 639-1 code of a declared language tag ("de-CH", "pt_BR", "fr"), or null when it names none. */
export function languageOfTag(tag: string | null | undefined): string | null {
  const primary = tag?.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return /^[a-z]{2}$/.test(primary) ? primary : null;
}

/**
 * A page's language: its text's when the text says it clearly, otherwise what the page declares, otherwise the text's
 * best guess if any. The text wins a disagreement when it holds two and a half times the evidence for its language
 * that it holds for the declared one, because site templates often keep `lang="en"` on pages written in another
 * language; a declared language outside the placed ones is kept unless the text is unambiguous.
 */
export function detectLanguage(text: string, declared?: string | null): string | null {
  const tag = languageOfTag(declared);
  const guess = guessLanguage(text);
  if (!guess) return tag;
  if (!tag || tag === guess.language) return guess.language;
  const declaredScore = guess.scores.get(tag as PlacedLanguage);
  const clear = declaredScore === undefined ? guess.score >= 2 * MIN_SCORE && guess.score >= 2.5 * guess.runnerUp : guess.score >= 2.5 * Math.max(declaredScore, 1);
  return clear ? guess.language : tag;
}
