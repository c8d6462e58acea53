// The language of a homepage's text, and how it combines with what the page declares (core/language.ts).
import { describe, expect, it } from 'vitest';
import { detectLanguage, guessLanguage, languageOfTag } from '@rivals/core';

const SAMPLES: [string, string][] = [
  ['en', 'The accounting software for small businesses: send invoices and track your expenses in one place.'],
  ['de', 'Die Buchhaltungssoftware für kleine Unternehmen: Rechnungen schreiben und Ausgaben im Blick behalten.'],
  ['fr', 'Le logiciel de comptabilité pour les petites entreprises : envoyez vos factures et suivez vos dépenses.'],
  ['es', 'El programa de contabilidad para las pequeñas empresas: envía tus facturas y controla los gastos.'],
  ['pt', 'O software de contabilidade para as pequenas empresas: envie suas faturas e acompanhe as despesas.'],
  ['it', 'Il software di contabilità per le piccole imprese: invia le fatture e tieni sotto controllo le spese.'],
  ['nl', 'De boekhoudsoftware voor het mkb: verstuur je facturen en houd je uitgaven bij op één plek.'],
];

describe('language of a text', () => {
  it.each(SAMPLES)('recognises %s', (language, text) => {
    expect(guessLanguage(text)?.language).toBe(language);
    expect(detectLanguage(text)).toBe(language);
  });

  it('names none from too little text', () => {
    expect(guessLanguage('Acme')).toBeNull();
    expect(guessLanguage('')).toBeNull();
    expect(detectLanguage('Acme CRM')).toBeNull();
  });

  it('reads only the first 4 000 characters', () => {
    expect(guessLanguage(`${'x '.repeat(2_000)}${SAMPLES[1]![1]}`)).toBeNull();
  });
});

describe('declared and detected language together', () => {
  it('keeps the declared language when the text agrees or says too little', () => {
    expect(detectLanguage('Aurora', 'pt-BR')).toBe('pt');
    expect(detectLanguage(SAMPLES[2]![1], 'fr')).toBe('fr');
  });

  it('lets plain text overrule a template that declares English', () => {
    expect(detectLanguage(SAMPLES[1]![1], 'en')).toBe('de');
    expect(detectLanguage(SAMPLES[4]![1], 'en-US')).toBe('pt');
  });

  it('keeps a declared language the text cannot name, unless the text is unambiguous', () => {
    expect(detectLanguage('株式会社サンプル CRM', 'ja')).toBe('ja');
    const english = `${SAMPLES[0]![1]} Connect your bank and we do the rest: the reports are ready when you are.`;
    expect(detectLanguage(english, 'ja')).toBe('en');
  });

  it('reads language tags as ISO 639-1 codes', () => {
    expect(languageOfTag('de-CH')).toBe('de');
    expect(languageOfTag('pt_BR')).toBe('pt');
    expect(languageOfTag(' FR ')).toBe('fr');
    expect(languageOfTag('x-klingon')).toBeNull();
    expect(languageOfTag('deu')).toBeNull();
    expect(languageOfTag(undefined)).toBeNull();
  });
});
