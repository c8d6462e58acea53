// crawler adapter (secondary): what a homepage's HTML says about the company. Pure: bytes in, facts out, no network.
// One pass of htmlparser2's tokenizer, no tree and no stack of open elements: the cost is linear in the page's size
// whatever its nesting, attributes or text, and only the few things the profile needs are kept, each capped.
import { decodeBuffer } from 'encoding-sniffer';
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { detectLanguage } from '@rivals/core';

export interface PageFacts {
  title: string;
  description: string;
  headings: string[];
  organizationName: string | null;
  keywords: string[];
  /** ISO 639-1: what the text says when it says it clearly, else `<html lang>` (or og:locale), else null. */
  language: string | null;
  /** ISO 3166-1 alpha-2 code of the JSON-LD Organization's address, when the page states one. */
  country?: string;
}

const MAX_HEADINGS = 12;
const MAX_KEYWORDS = 20;
// Caps keep a hostile or bloated page from filling the profile cache; real titles and descriptions are far shorter.
const MAX_TITLE_CHARS = 300;
const MAX_DESCRIPTION_CHARS = 1_000;
const MAX_HEADING_CHARS = 200;
const MAX_NAME_CHARS = 200;
const MAX_KEYWORD_CHARS = 60;

/** Tags read; the rest of a page with more is ignored (a real homepage has a few thousand). */
export const MAX_TAGS = 200_000;
/** Raw characters kept of one title, heading or attribute value, before whitespace is collapsed and the text clipped. */
const MAX_RAW_CHARS = 8_192;
/** A JSON-LD script longer than this is skipped, not parsed: an Organization fits in a few hundred bytes. */
export const MAX_JSON_LD_CHARS = 64 * 1024;
/** JSON-LD scripts parsed per page, in document order. */
const MAX_JSON_LD_SCRIPTS = 16;
/** JSON-LD graphs are walked breadth-first and only this far, so a large or deeply nested block costs little. */
const MAX_JSON_LD_NODES = 2_000;
/** Longer tag or attribute names are none we look for, so they are never copied out of the page. */
const MAX_NAME_LENGTH = 16;

const ORGANIZATION_TYPES = new Set(['organization', 'corporation']);
const HEADINGS = new Set(['h1', 'h2', 'h3']);
const ALL_HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Elements that may sit in <head>; any other start tag means the body has begun (so a later <title> is not the page's). */
const HEAD_ELEMENTS = new Set(['html', 'head', 'title', 'meta', 'link', 'script', 'style', 'base', 'noscript', 'template', 'basefont', 'bgsound']);
/** Foreign content: an <svg><title> is an icon's tooltip, not the page's title. */
const FOREIGN = new Set(['svg', 'math']);
/** Raw-text elements whose content is no visible text. */
const RAW_TEXT = new Set(['script', 'style']);
const WANTED_META = new Set(['description', 'keywords', 'og:title', 'og:description', 'og:site_name', 'og:locale']);
const WANTED_ATTRIBUTES: Record<string, ReadonlySet<string>> = {
  html: new Set(['lang']),
  meta: new Set(['name', 'property', 'content']),
  script: new Set(['type']),
};
/** Attributes that hide an element, read on every element: text a visitor cannot see says nothing (poisoning). */
const HIDING_ATTRIBUTES = new Set(['hidden', 'aria-hidden', 'style']);
const HIDING_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d]*[1-9])|opacity\s*:\s*0(?![.\d]*[1-9])|(?:left|top|text-indent)\s*:\s*-\d{3,}/i;
/** Elements without an end tag: hiding one hides nothing else. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** Parses an HTML document. `charset` is the Content-Type's; a BOM overrides it and a `<meta charset>` stands in for it. */
export function extractFacts(html: Buffer, charset?: string): PageFacts {
  const page = new PageReader(decodeBuffer(html, { transportLayerEncodingLabel: charset, defaultEncoding: 'utf-8' }));
  const { title, meta, headings, jsonLd, lang } = page.read();
  const organization = jsonLdOrganization(jsonLd);
  const country = organization?.country;
  const facts = {
    title: clip(clean(title) || clean(meta.get('og:title')), MAX_TITLE_CHARS),
    description: clip(clean(meta.get('description')) || clean(meta.get('og:description')), MAX_DESCRIPTION_CHARS),
    headings,
    organizationName: clip(organization?.name ?? clean(meta.get('og:site_name')), MAX_NAME_CHARS) || null,
    keywords: keywords(meta.get('keywords')),
    ...(country ? { country } : {}),
  };
  const text = [facts.title, facts.description, ...facts.headings].join(' ');
  return { ...facts, language: detectLanguage(text, lang ?? meta.get('og:locale')) };
}

/** A piece of text being collected, up to `max` characters; `over` once more was offered. */
class Capture {
  text = '';
  over = false;
  constructor(private readonly max: number) {}
  add(part: string): void {
    const room = this.max - this.text.length;
    if (part.length > room) this.over = true;
    if (room > 0) this.text += part.length > room ? part.slice(0, room) : part;
  }
}

/** The tokenizer's listener: a handful of flags and counters instead of a DOM. */
class PageReader implements TokenizerCallbacks {
  private readonly tokenizer = new Tokenizer({ decodeEntities: true }, this);
  private tags = 0;
  private tag = '';
  private attributes: Map<string, string> | null = null;
  private attribute: { name: string; value: Capture } | null = null;
  private inBody = false;
  private foreignDepth = 0;
  private inNoscript = false;
  private rawText: string | null = null;
  /** The element that hides what it holds, and how many of its kind are open inside it (no stack: one counter). */
  private hiddenTag: string | null = null;
  private hiddenDepth = 0;
  private titleCapture: Capture | null = null;
  private headingCapture: Capture | null = null;
  private scriptCapture: Capture | null = null;

  private title: string | null = null;
  private lang: string | null = null;
  private readonly meta = new Map<string, string>();
  private readonly headings: string[] = [];
  private readonly seenHeadings = new Set<string>();
  private readonly jsonLd: string[] = [];

  constructor(private readonly html: string) {}

  read() {
    this.tokenizer.write(this.html);
    this.tokenizer.end(); // nothing more when paused at the tag cap
    // A page cut at the body cap ends inside an element: what was read of it counts, as a browser would show it.
    this.finishTitle();
    this.finishHeading();
    return { title: this.title ?? '', meta: this.meta, headings: this.headings, jsonLd: this.jsonLd, lang: this.lang };
  }

  onopentagname(start: number, endIndex: number): void {
    if (++this.tags > MAX_TAGS) {
      this.tokenizer.pause(); // the rest of the page is never looked at
      return;
    }
    this.tag = this.name(start, endIndex);
    this.attributes = this.inNoscript ? null : new Map();
  }

  onattribname(start: number, endIndex: number): void {
    const name = this.attributes ? this.name(start, endIndex) : '';
    const wanted = WANTED_ATTRIBUTES[this.tag]?.has(name) || HIDING_ATTRIBUTES.has(name);
    this.attribute = this.attributes && wanted && !this.attributes.has(name) ? { name, value: new Capture(MAX_RAW_CHARS) } : null;
  }

  onattribdata(start: number, endIndex: number): void {
    this.attribute?.value.add(this.html.slice(start, Math.min(endIndex, start + MAX_RAW_CHARS)));
  }

  onattribentity(codepoint: number): void {
    this.attribute?.value.add(String.fromCodePoint(codepoint));
  }

  onattribend(): void {
    if (this.attribute) this.attributes?.set(this.attribute.name, this.attribute.value.text);
    this.attribute = null;
  }

  onopentagend(): void {
    this.open(this.tag, false);
  }

  onselfclosingtag(): void {
    this.open(this.tag, true);
  }

  onclosetag(start: number, endIndex: number): void {
    this.close(this.name(start, endIndex));
  }

  ontext(start: number, endIndex: number): void {
    if (!this.titleCapture && !this.headingCapture && !this.scriptCapture) return;
    this.text(this.html.slice(start, Math.min(endIndex, start + MAX_JSON_LD_CHARS + 1)));
  }

  ontextentity(codepoint: number): void {
    if (this.titleCapture || this.headingCapture || this.scriptCapture) this.text(String.fromCodePoint(codepoint));
  }

  onend(): void {}
  oncdata(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}

  private open(tag: string, selfClosing: boolean): void {
    // With scripting on (as browsers parse it), <noscript> holds text, not elements: nothing in it counts.
    if (this.inNoscript) return;
    if (!HEAD_ELEMENTS.has(tag)) this.inBody = true;
    if (!selfClosing && !VOID.has(tag)) {
      if (this.hiddenTag === tag) this.hiddenDepth++;
      else if (this.hiddenTag === null && this.inBody && this.hides()) [this.hiddenTag, this.hiddenDepth] = [tag, 1];
    }
    if (FOREIGN.has(tag)) {
      if (!selfClosing) this.foreignDepth++;
    } else if (tag === 'noscript') {
      this.inNoscript = true;
    } else if (tag === 'html') {
      this.lang ??= this.attributes?.get('lang')?.slice(0, MAX_NAME_LENGTH) ?? null;
    } else if (tag === 'meta') {
      this.readMeta();
    } else if (RAW_TEXT.has(tag)) {
      this.rawText = tag;
      const type = this.attributes?.get('type')?.trim().toLowerCase() ?? '';
      if (tag === 'script' && type.startsWith('application/ld+json') && this.jsonLd.length < MAX_JSON_LD_SCRIPTS) this.scriptCapture = new Capture(MAX_JSON_LD_CHARS);
    } else if (tag === 'title') {
      if (this.title === null && !this.inBody && this.foreignDepth === 0) this.titleCapture = new Capture(MAX_RAW_CHARS);
    } else if (ALL_HEADINGS.has(tag)) {
      this.finishHeading(); // a heading start tag closes an open heading
      if (HEADINGS.has(tag) && this.headings.length < MAX_HEADINGS && this.hiddenTag === null) this.headingCapture = new Capture(MAX_RAW_CHARS);
    }
    this.attributes = null;
  }

  /** Whether the element being opened hides its content (the hidden attribute, aria-hidden, or a hiding style). */
  private hides(): boolean {
    const a = this.attributes;
    if (!a) return false;
    return a.has('hidden') || a.get('aria-hidden')?.trim().toLowerCase() === 'true' || HIDING_STYLE.test(a.get('style') ?? '');
  }

  private close(tag: string): void {
    if (!this.inNoscript && tag === this.hiddenTag && --this.hiddenDepth === 0) this.hiddenTag = null;
    if (this.inNoscript) {
      if (tag === 'noscript') this.inNoscript = false;
    } else if (tag === this.rawText) {
      this.rawText = null;
      if (this.scriptCapture && !this.scriptCapture.over) this.jsonLd.push(this.scriptCapture.text);
      this.scriptCapture = null;
    } else if (tag === 'title') {
      this.finishTitle();
    } else if (ALL_HEADINGS.has(tag)) {
      this.finishHeading();
    } else if (FOREIGN.has(tag) && this.foreignDepth > 0) {
      this.foreignDepth--;
    }
  }

  private text(part: string): void {
    if (this.rawText) {
      this.scriptCapture?.add(part);
      return;
    }
    this.titleCapture?.add(part);
    this.headingCapture?.add(part);
  }

  /** The first `content` of each wanted `<meta name>` and `<meta property>`, keyed in lower case (Open Graph tags are
   * found under `property` by the spec and under `name` in the wild, so both are read). */
  private readMeta(): void {
    const content = this.attributes?.get('content');
    if (content === undefined) return;
    for (const key of [this.attributes?.get('name'), this.attributes?.get('property')]) {
      const name = key?.trim().toLowerCase();
      if (name && WANTED_META.has(name) && !this.meta.has(name)) this.meta.set(name, content);
    }
  }

  private finishTitle(): void {
    if (this.titleCapture) this.title = this.titleCapture.text;
    this.titleCapture = null;
  }

  private finishHeading(): void {
    if (!this.headingCapture) return;
    const text = clip(clean(this.headingCapture.text), MAX_HEADING_CHARS);
    this.headingCapture = null;
    const key = text.toLowerCase();
    if (!text || this.seenHeadings.has(key)) return;
    this.seenHeadings.add(key);
    this.headings.push(text);
  }

  /** A tag or attribute name in lower case; a long one (none we look for) as '' without copying it. */
  private name(start: number, endIndex: number): string {
    return endIndex - start > MAX_NAME_LENGTH ? '' : this.html.slice(start, endIndex).toLowerCase();
  }
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

/** The first Organization or Corporation with a name in the page's JSON-LD, top-level nodes before nested ones
 * (a page's own Organization is usually at the top; nested ones are often a publisher or a partner): its name, and
 * its address's country when that is an ISO code. */
function jsonLdOrganization(scripts: string[]): { name: string; country?: string } | null {
  const queue: unknown[] = [];
  for (const script of scripts) {
    try {
      queue.push(JSON.parse(script));
    } catch {
      // Broken JSON-LD is common and says nothing about the rest of the page.
    }
  }
  const enqueue = (value: unknown) => {
    if (queue.length < MAX_JSON_LD_NODES) queue.push(value);
  };
  for (let i = 0; i < queue.length && i < MAX_JSON_LD_NODES; i++) {
    const node = queue[i];
    if (Array.isArray(node)) {
      for (const item of node) enqueue(item);
    } else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (isOrganization(record['@type'])) {
        const name = clean(textOf(record.name));
        if (name) {
          const address = (Array.isArray(record.address) ? record.address[0] : record.address) as Record<string, unknown> | undefined;
          const raw = address && typeof address === 'object' ? address.addressCountry : undefined;
          const code = clean(textOf(raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>).name : raw)).toUpperCase();
          return /^[A-Z]{2}$/.test(code) ? { name, country: code } : { name };
        }
      }
      for (const key in record) {
        const value = record[key];
        if (value && typeof value === 'object') enqueue(value);
      }
    }
  }
  return null;
}

function isOrganization(type: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  return types.some((t) => typeof t === 'string' && ORGANIZATION_TYPES.has(t.replace(/^(https?:\/\/schema\.org\/|schema:)/i, '').toLowerCase()));
}

/** A JSON-LD text value: a string, a language-tagged `{ "@value": … }`, or a list of either (looked into 3 levels deep). */
function textOf(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value;
  if (depth >= 3) return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const text = textOf(item, depth + 1);
      if (text) return text;
    }
    return undefined;
  }
  if (value && typeof value === 'object') return textOf((value as Record<string, unknown>)['@value'], depth + 1);
  return undefined;
}

function clean(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max).trimEnd();
}
