// crawler adapter (secondary): what a homepage's HTML says about the company. Pure: bytes in, facts out, no network.
import { loadBuffer, type CheerioAPI } from 'cheerio';

export interface PageFacts {
  title: string;
  description: string;
  headings: string[];
  organizationName: string | null;
  keywords: string[];
}

const MAX_HEADINGS = 12;
const MAX_KEYWORDS = 20;
// Caps keep a hostile or bloated page from filling the profile cache; real titles and descriptions are far shorter.
const MAX_TITLE_CHARS = 300;
const MAX_DESCRIPTION_CHARS = 1_000;
const MAX_HEADING_CHARS = 200;
const MAX_NAME_CHARS = 200;
const MAX_KEYWORD_CHARS = 60;
/** JSON-LD graphs are walked breadth-first and only this far, so a huge or deeply nested block costs little. */
const MAX_JSON_LD_NODES = 2_000;
const ORGANIZATION_TYPES = new Set(['organization', 'corporation']);

/** Parses an HTML document. `charset` is the Content-Type's; a BOM overrides it and a `<meta charset>` stands in for it. */
export function extractFacts(html: Buffer, charset?: string): PageFacts {
  const $ = loadBuffer(html, { encoding: { transportLayerEncodingLabel: charset, defaultEncoding: 'utf-8' } });
  const meta = metaContents($);
  return {
    title: clip(clean($('head title').first().text()) || clean(meta.get('og:title')), MAX_TITLE_CHARS),
    description: clip(clean(meta.get('description')) || clean(meta.get('og:description')), MAX_DESCRIPTION_CHARS),
    headings: headings($),
    organizationName: clip(jsonLdOrganizationName($) ?? clean(meta.get('og:site_name')), MAX_NAME_CHARS) || null,
    keywords: keywords(meta.get('keywords')),
  };
}

/** The first `content` of each `<meta name>` and `<meta property>`, keyed in lower case (Open Graph tags are found
 * under `property` by the spec and under `name` in the wild, so both are read). */
function metaContents($: CheerioAPI): Map<string, string> {
  const contents = new Map<string, string>();
  $('meta').each((_, element) => {
    const content = $(element).attr('content');
    if (content === undefined) return;
    for (const key of [$(element).attr('name'), $(element).attr('property')]) {
      const name = key?.trim().toLowerCase();
      if (name && !contents.has(name)) contents.set(name, content);
    }
  });
  return contents;
}

function headings($: CheerioAPI): string[] {
  const seen = new Set<string>();
  const found: string[] = [];
  for (const element of $('h1, h2, h3').toArray()) {
    const text = clip(clean($(element).text()), MAX_HEADING_CHARS);
    const key = text.toLowerCase();
    if (!text || seen.has(key)) continue;
    seen.add(key);
    found.push(text);
    if (found.length === MAX_HEADINGS) break;
  }
  return found;
}

function keywords(content: string | undefined): string[] {
  if (!content) return [];
  const unique = new Set<string>();
  for (const part of content.split(',')) {
    const keyword = clip(clean(part).toLowerCase(), MAX_KEYWORD_CHARS);
    if (keyword) unique.add(keyword);
    if (unique.size === MAX_KEYWORDS) break;
  }
  return [...unique];
}

/** The `name` of the first Organization or Corporation in the page's JSON-LD, top-level nodes before nested ones
 * (a page's own Organization is usually at the top; nested ones are often a publisher or a partner). */
function jsonLdOrganizationName($: CheerioAPI): string | null {
  const queue: unknown[] = [];
  $('script').each((_, element) => {
    const type = $(element).attr('type')?.trim().toLowerCase() ?? '';
    if (!type.startsWith('application/ld+json')) return;
    try {
      queue.push(JSON.parse($(element).text()));
    } catch {
      // Broken JSON-LD is common and says nothing about the rest of the page.
    }
  });
  for (let i = 0; i < queue.length && i < MAX_JSON_LD_NODES; i++) {
    const node = queue[i];
    if (Array.isArray(node)) {
      queue.push(...node);
    } else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (isOrganization(record['@type'])) {
        const name = clean(textOf(record.name));
        if (name) return name;
      }
      for (const value of Object.values(record)) if (value && typeof value === 'object') queue.push(value);
    }
  }
  return null;
}

function isOrganization(type: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  return types.some((t) => typeof t === 'string' && ORGANIZATION_TYPES.has(t.replace(/^(https?:\/\/schema\.org\/|schema:)/i, '').toLowerCase()));
}

/** A JSON-LD text value: a string, a language-tagged `{ "@value": … }`, or a list of either. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).find((v) => v);
  if (value && typeof value === 'object') return textOf((value as Record<string, unknown>)['@value']);
  return undefined;
}

function clean(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max).trimEnd();
}
