// What the crawler reads from a homepage's HTML: title, descriptions, headings, JSON-LD organisation, keywords, charset;
// and that generated hostile pages (deep nesting, huge attributes, giant JSON-LD, one huge text node) are read in one pass.
import { describe, expect, it } from 'vitest';
import { extractFacts } from '@rivals/crawler';
import { MAX_JSON_LD_CHARS, MAX_TAGS } from '../../../packages/crawler/src/extract.js';
import { hostilePages } from './hostile-pages.js';

const page = (head: string, body = '') => Buffer.from(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`);

describe('homepage facts', () => {
  it('reads the title, the meta description, headings, the JSON-LD organisation and the keywords', () => {
    // Prepare
    const html = page(
      `<title>  Acme CRM —
         sales software </title>
       <meta name="Description" content="The CRM for small teams.">
       <meta property="og:description" content="Not this one.">
       <meta property="og:site_name" content="Acme (OG)">
       <meta name="keywords" content="CRM, Sales Pipeline ,, crm, email">
       <script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Acme Inc.","url":"https://acme.test"}</script>`,
      `<svg><title>icon</title></svg><h1> Close more deals </h1><h2>Pipeline</h2><h3>Pipeline</h3><h4>Not a heading we read</h4>`,
    );

    // Act
    const facts = extractFacts(html, 'utf-8');

    // Assess
    expect(facts).toEqual({
      title: 'Acme CRM — sales software',
      description: 'The CRM for small teams.',
      headings: ['Close more deals', 'Pipeline'],
      organizationName: 'Acme Inc.',
      keywords: ['crm', 'sales pipeline', 'email'],
      language: 'en',
    });
  });

  it('falls back to og:description and og:site_name, and to og:title when there is no <title>', () => {
    // Prepare
    const html = page('<meta property="og:title" content="Acme"><meta name="og:description" content="From Open Graph."><meta property="og:site_name" content="Acme Corp">');

    // Act
    const facts = extractFacts(html);

    // Assess
    expect(facts).toMatchObject({ title: 'Acme', description: 'From Open Graph.', organizationName: 'Acme Corp', headings: [], keywords: [] });
  });

  it('finds a Corporation in an @graph, prefers top-level nodes, and survives broken JSON-LD', () => {
    // Prepare
    const graph = {
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'WebPage', name: 'Home', publisher: { '@type': 'Organization', name: 'Nested Publisher' } },
        { '@type': ['Thing', 'schema:Corporation'], name: [{ '@value': 'Globex Corporation', '@language': 'en' }] },
      ],
    };
    const html = page(`<script type="application/ld+json">{ broken</script><script type="application/ld+json; charset=utf-8">${JSON.stringify(graph)}</script>`);

    // Act
    const facts = extractFacts(html);

    // Assess
    expect(facts.organizationName).toBe('Globex Corporation');
  });

  it('keeps at most 12 distinct headings and 20 keywords', () => {
    // Prepare
    const headings = Array.from({ length: 20 }, (_, i) => `<h2>Feature ${i}</h2><h3>feature ${i}</h3>`).join('');
    const keywords = Array.from({ length: 30 }, (_, i) => `Word${i}`).join(',');
    const html = page(`<title>Many</title><meta name="keywords" content="${keywords}">`, headings);

    // Act
    const facts = extractFacts(html);

    // Assess
    expect(facts.headings).toEqual(Array.from({ length: 12 }, (_, i) => `Feature ${i}`));
    expect(facts.keywords).toHaveLength(20);
    expect(facts.keywords[0]).toBe('word0');
  });

  it('decodes the charset the server declares, else the one the page declares', () => {
    // Prepare
    const latin1 = Buffer.from('<html><head><title>Caf\xe9 R\xe9sum\xe9</title></head></html>', 'latin1');
    const declared = Buffer.concat([Buffer.from('<html><head><meta charset="windows-1252"><title>'), Buffer.from('Caf\xe9', 'latin1'), Buffer.from('</title></head></html>')]);

    // Act
    const fromHeader = extractFacts(latin1, 'ISO-8859-1');
    const fromMeta = extractFacts(declared);

    // Assess
    expect(fromHeader.title).toBe('Café Résumé');
    expect(fromMeta.title).toBe('Café');
  });

  it('returns empty facts for a page without text', () => {
    // Act
    const facts = extractFacts(page('', '<div><img src="x.png"></div>'));

    // Assess
    expect(facts).toEqual({ title: '', description: '', headings: [], organizationName: null, keywords: [], language: null });
  });
});

describe('the language of a homepage', () => {
  const german = '<title>Sprachschule Lindenhof – Deutschkurse für Erwachsene</title><meta name="description" content="Sprachkurse in kleinen Gruppen und Einzelunterricht mit erfahrenen Lehrern, vor Ort in München oder online.">';

  it('is the text\'s when the page declares none', () => {
    expect(extractFacts(page(german)).language).toBe('de');
  });

  it('is the text\'s when a template declares another language the text plainly is not', () => {
    expect(extractFacts(Buffer.from(`<html lang="en-US"><head>${german}</head></html>`)).language).toBe('de');
  });

  it('is the declared one (<html lang>, else og:locale) when the text says too little', () => {
    expect(extractFacts(Buffer.from('<html lang="pt-BR"><head><title>Aurora</title></head></html>')).language).toBe('pt');
    expect(extractFacts(page('<meta property="og:locale" content="it_IT"><title>Vetrina</title>')).language).toBe('it');
    expect(extractFacts(Buffer.from('<html lang="ja"><head><title>株式会社サンプル</title></head></html>')).language).toBe('ja');
  });

  it('is null when neither the page nor its text names one', () => {
    expect(extractFacts(page('<title>Acme</title>')).language).toBeNull();
    expect(extractFacts(Buffer.from('<html lang="not a language"><head><title>Acme</title></head></html>')).language).toBeNull();
  });

  it('ignores a lang attribute inside <noscript> and on elements other than <html>', () => {
    expect(extractFacts(Buffer.from('<html><head><noscript><html lang="fr"></noscript><title>Acme</title></head><body><div lang="nl">x</div></body></html>')).language).toBeNull();
  });
});

describe('homepage facts from hostile pages', () => {
  it.each(hostilePages().map((p) => [p.name, p] as const))('reads %s in one bounded pass', (_name, hostile) => {
    // Act
    const facts = extractFacts(hostile.html, 'utf-8');

    // Assess
    expect(facts).toMatchObject(hostile.expected);
  });

  it('skips a JSON-LD script over 64 KiB without parsing it, and still reads the next one', () => {
    // Prepare
    const big = JSON.stringify({ '@type': 'Organization', name: 'Too Big', filler: 'x'.repeat(MAX_JSON_LD_CHARS) });
    const html = page(`<script type="application/ld+json">${big}</script><script type="application/ld+json">{"@type":"Corporation","name":"Small Corp"}</script>`);

    // Act
    const facts = extractFacts(html);

    // Assess
    expect(facts.organizationName).toBe('Small Corp');
  });

  it('stops reading after the tag cap: a heading past it is not seen', () => {
    // Prepare
    const html = page('<title>T</title>', `<h1>Early</h1>${'<i></i>'.repeat(MAX_TAGS)}<h2>Late</h2>`);

    // Act
    const facts = extractFacts(html);

    // Assess
    expect(facts.headings).toEqual(['Early']);
  });

  it('reads like a browser: entities decoded, <noscript> and <svg><title> ignored, a title in the body is not the page\'s, a heading ends at the next heading', () => {
    // Prepare
    const html = Buffer.from(
      `<html><head><noscript><title>No JS</title><meta name="description" content="noscript"></noscript><meta name="description" content="Fish &amp; chips &#x2014; fast"></head>` +
        `<body><svg><title>icon</title></svg><title>Body title</title><h1>Fish &amp; <b>chips</b><h2>Menu<script>var x = "<h3>no</h3>";</script></h2></body></html>`,
    );

    // Act
    const facts = extractFacts(html, 'utf-8');

    // Assess
    expect(facts).toEqual({ title: '', description: 'Fish & chips — fast', headings: ['Fish & chips', 'Menu'], organizationName: null, keywords: [], language: null });
  });
});
