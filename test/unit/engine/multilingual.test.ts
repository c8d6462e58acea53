// Reading a page in German, French, Spanish, Portuguese, Italian or Dutch in the knowledge base's English
// (engine/multilingual.ts): accents folded, light stems, phrases, compounds, stop words, and nothing done to English.
import { describe, expect, it } from 'vitest';
import { foldWords, languageByLexicon, lightStem, marketsOf, toEnglish } from '../../../packages/engine/src/multilingual.js';

describe('toEnglish', () => {
  it('translates business words of each language, whatever their accents and plural', () => {
    expect(toEnglish('Écoles de langues', 'fr')).toBe('school language');
    expect(toEnglish('Facturación electrónica para pymes', 'es')).toContain('invoice');
    expect(toEnglish('Soluções de faturação', 'pt')).toBe('solution invoice invoicing');
    expect(toEnglish('Scuole di lingue', 'it')).toBe('school language');
    expect(toEnglish('Taalscholen', 'nl')).toBe('language school');
  });

  it('splits German and Dutch compounds into known words, across linking letters', () => {
    expect(toEnglish('Sprachschule', 'de')).toBe('language school');
    expect(toEnglish('Buchhaltungssoftware', 'de')).toBe('accounting bookkeeping software');
    expect(toEnglish('Zahnarztpraxis', 'de')).toContain('dentist');
    expect(toEnglish('Boekhoudsoftware', 'nl')).toBe('accounting software');
  });

  it('matches phrases before words', () => {
    expect(toEnglish('boutique en ligne', 'fr')).toBe('online shop ecommerce');
    expect(toEnglish('cours particuliers', 'fr')).toBe('lessons instruction');
  });

  it("drops the language's function words and keeps words it does not know (often shared with English)", () => {
    expect(toEnglish('Die Software für Ihr Marketing', 'de')).toBe('software marketing');
    expect(toEnglish("L'hôtel de la gare", 'fr')).toBe('hotel station');
  });

  it('leaves English, unknown and other languages as they are', () => {
    const text = 'Die casting and tooling for car makers';
    expect(toEnglish(text, 'en')).toBe(text);
    expect(toEnglish(text, null)).toBe(text);
    expect(toEnglish(text, 'ja')).toBe(text);
  });

  it('costs little on hostile text: many unknown compounds, or one endless word', () => {
    const many = Array.from({ length: 2_000 }, (_, i) => `Qwertzuiopasdfghjkl${i}yxcvbnmqwertz`).join(' ');
    const endless = 'schule'.repeat(2_000);
    const start = performance.now();
    toEnglish(many, 'de');
    expect(toEnglish(endless, 'nl')).toBe(endless);
    expect(performance.now() - start).toBeLessThan(2_000);
  });
});

describe('folding and stemming', () => {
  it('folds case and accents, and ß to ss', () => {
    expect(foldWords('Straße, Éducation & Ação')).toEqual(['strasse', 'education', 'acao']);
  });

  it('brings singular and plural to one stem', () => {
    expect(lightStem('schulen', 'de')).toBe(lightStem('schule', 'de'));
    expect(lightStem('solucoes', 'pt')).toBe(lightStem('solucao', 'pt'));
    expect(lightStem('scholen', 'nl')).toBe(lightStem('school', 'nl'));
    expect(lightStem('banche', 'it')).toBe(lightStem('banca', 'it'));
  });
});

describe('language by vocabulary', () => {
  it('names the language of a short text by the words its lexicon knows', () => {
    expect(languageByLexicon('Sprachschule Berlin')).toBe('de');
    expect(languageByLexicon('Boulangerie Dupont – pains et pâtisseries')).toBe('fr');
    expect(languageByLexicon('Fietsenwinkel De Spaak')).toBe('nl');
  });

  it('names none for English, for words shared by several languages, or for one word', () => {
    expect(languageByLexicon('Accounting software for small business')).toBeNull();
    expect(languageByLexicon('Hotel booking platform')).toBeNull();
    expect(languageByLexicon('Clínica dental Sonrisa')).toBeNull();
    expect(languageByLexicon('Bäckerei Schmidt')).toBeNull();
  });
});

describe('home markets', () => {
  it('names where a translated language is spoken in business, and nothing for English', () => {
    expect(marketsOf('pt')?.has('BR')).toBe(true);
    expect(marketsOf('de')?.has('AT')).toBe(true);
    expect(marketsOf('en')).toBeNull();
    expect(marketsOf(null)).toBeNull();
  });
});
