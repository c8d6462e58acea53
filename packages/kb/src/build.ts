// kb build step: validates every sector file and compiles dist/kb-index.json. Fails loudly, listing every problem.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { parse as parseDomain } from 'tldts';
import { AUTHORED_RELATIONS, RELATION_KINDS, SectorFile, type KbEntity, type KbIndex, type KbList } from './schema.js';
import { categoryText, entityText, tokenize } from './text.js';

export const MIN_CATEGORY_MEMBERS = 8;
const here = dirname(fileURLToPath(import.meta.url));
export const SECTORS_DIR = join(here, '..', 'data', 'sectors');
export const LISTS_DIR = join(here, '..', 'data', 'lists');
export const INDEX_PATH = join(here, '..', 'dist', 'kb-index.json');

const registrable = (host: string) => parseDomain(host, { allowPrivateDomains: true }).domain ?? host;

export interface BuildResult {
  index: KbIndex;
  lists: KbList[];
  problems: string[];
}

interface SourceFile {
  name: string;
  text: string;
}

/**
 * A list file: `# list: <name>` and `# as-of: <date>` header lines, then one domain a line (a trailing `# comment`
 * names the company). Problems are reported, not thrown.
 */
export function parseList(
  file: SourceFile,
  problems: string[],
): { id: string; name: string; asOf: string; domains: string[]; tickers: Map<string, string>; exchange?: { name: string | null; country: string | null } } {
  const id = file.name.replace(/\.txt$/, '');
  let name = '';
  let asOf = '';
  let exchange: { name: string | null; country: string | null } | undefined;
  const domains: string[] = [];
  const tickers = new Map<string, string>();
  file.text.split(/\r?\n/).forEach((line, n) => {
    const header = /^#\s*(list|as-of|exchange):\s*(.+?)\s*$/i.exec(line);
    if (header) {
      const key = header[1]!.toLowerCase();
      if (key === 'list') name = header[2]!;
      else if (key === 'as-of') asOf = header[2]!;
      else {
        // "# exchange: Nasdaq (US)", or "# exchange: various (US)" for an index whose members trade on several.
        const m = /^(.+?)\s*\(([A-Z]{2})\)$/.exec(header[2]!);
        if (!m) problems.push(`lists/${file.name}:${n + 1}: write "# exchange: <name> (<country code>)"`);
        else exchange = { name: m[1] === 'various' ? null : m[1]!, country: m[2]! };
      }
      return;
    }
    // "domain" or "domain TICKER", then an optional "# comment".
    const [domain, ticker, ...rest] = line.replace(/#.*$/, '').trim().split(/\s+/);
    if (!domain) return;
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain)) problems.push(`lists/${file.name}:${n + 1}: "${domain}" is not a domain`);
    else if (rest.length || (ticker !== undefined && !/^[A-Z0-9.\-]{1,12}$/.test(ticker))) problems.push(`lists/${file.name}:${n + 1}: write "domain [TICKER] # name"`);
    else {
      domains.push(domain.toLowerCase());
      if (ticker) tickers.set(domain.toLowerCase(), ticker);
    }
  });
  if (!name) problems.push(`lists/${file.name}: no "# list: <name>" line`);
  if (!asOf) problems.push(`lists/${file.name}: no "# as-of: <date>" line`);
  return { id, name, asOf, domains, tickers, ...(exchange ? { exchange } : {}) };
}

/** A description that says the company's shares trade ("London-listed", "listed on Nasdaq", "publicly traded"). */
const LISTED_TEXT = /(\b[A-Z][\w.&-]*(?: [A-Z][\w&-]*)?-listed\b|\blisted (?:on|in) (?:the )?[A-Z]|\bpublicly (?:traded|listed)\b|\b(?:NYSE|Nasdaq)\b(?!-100))/;
const NOT_LISTED_TEXT = /\b(delisted|taken private|went private|unlisted|take-private|privately held|privately owned|family-owned|formerly listed|pre-IPO)\b/i;

/**
 * Ownership of every entry, derived rather than typed: public when a list of an index's constituents names it (its
 * exchange from that list, preferring the list of its home country, and its ticker when the list gives one), its
 * entry says `listed:`, or its description says its shares trade; else subsidiary when it has a parent; else private.
 * A product line is its company's.
 */
function assignOwnership(entities: KbEntity[], listings: { entity: number; exchange: { name: string | null; country: string | null }; ticker: string | null }[]): void {
  const best = new Map<number, (typeof listings)[number]>();
  const rank = (l: (typeof listings)[number]) => (l.exchange.name ? 2 : 0) + (l.exchange.country === entities[l.entity]!.hq ? 1 : 0);
  for (const l of listings) {
    const seen = best.get(l.entity);
    if (!seen || rank(l) > rank(seen)) best.set(l.entity, l);
  }
  entities.forEach((e, i) => {
    const listing = best.get(i);
    if (e.exchange !== null) e.ownership = 'public';
    else if (listing) Object.assign(e, { ownership: 'public', exchange: listing.exchange.name, ticker: listing.ticker });
    else if (NOT_LISTED_TEXT.test(e.description)) e.ownership = e.parent >= 0 ? 'subsidiary' : 'private';
    else if (LISTED_TEXT.test(e.description)) e.ownership = 'public';
    else e.ownership = e.parent >= 0 ? 'subsidiary' : 'private';
  });
  entities.forEach((e) => {
    let owner = e;
    for (let hops = 0; owner.product && owner.parent >= 0 && hops < 10; hops++) owner = entities[owner.parent]!;
    if (owner !== e) Object.assign(e, { ownership: owner.ownership, exchange: owner.exchange, ticker: owner.ticker });
  });
}

export function compile(files: SourceFile[], listFiles: SourceFile[] = []): BuildResult {
  const problems: string[] = [];
  const sectors: SectorFile[] = [];
  for (const file of [...files].sort((a, b) => a.name.localeCompare(b.name))) {
    let raw: unknown;
    try {
      raw = parseYaml(file.text, { uniqueKeys: true });
    } catch (error) {
      problems.push(`${file.name}: not valid YAML: ${(error as Error).message.split('\n')[0]}`);
      continue;
    }
    const parsed = SectorFile.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues.slice(0, 50)) {
        const at = issue.path.length >= 2 && issue.path[0] === 'companies' ? `${(raw as SectorFile).companies?.[Number(issue.path[1])]?.domain ?? ''} ` : '';
        problems.push(`${file.name}: ${at}${issue.path.join('.')}: ${issue.message}`);
      }
      continue;
    }
    if (`${parsed.data.sector}.yaml` !== file.name) problems.push(`${file.name}: sector id ${parsed.data.sector} does not match the file name`);
    sectors.push(parsed.data);
  }

  const categoryIds = new Map<string, number>();
  const categories: KbIndex['categories'] = [];
  sectors.forEach((sector, sectorIndex) =>
    sector.categories.forEach((c) => {
      if (categoryIds.has(c.id)) problems.push(`${sector.sector}: category ${c.id} is declared twice`);
      categoryIds.set(c.id, categories.length);
      categories.push({ id: c.id, name: c.name, sector: sectorIndex, description: c.description, terms: c.terms, related: [] });
    }),
  );

  const byHost = new Map<string, number>();
  const entities: KbEntity[] = [];
  const specs = sectors.flatMap((s) => s.companies.map((company) => ({ sector: s.sector, company })));
  const reviewedOf = new Map(sectors.map((s) => [s.sector, s.reviewed]));
  for (const { sector, company } of specs) {
    for (const host of [company.domain, ...company.domains]) {
      if (byHost.has(host)) problems.push(`${sector}: domain ${host} belongs to two entries (${entities[byHost.get(host)!]!.name} and ${company.name})`);
      else byHost.set(host, entities.length);
    }
    const unknownCategories = company.categories.filter((c) => !categoryIds.has(c));
    for (const c of unknownCategories) problems.push(`${sector}: ${company.domain}: unknown category ${c}`);
    entities.push({
      name: company.name,
      host: company.domain,
      domain: registrable(company.domain),
      otherDomains: company.domains,
      aliases: company.aliases,
      parent: -1,
      product: company.product ?? false,
      description: company.description,
      categories: [...new Set(company.categories.filter((c) => categoryIds.has(c)).map((c) => categoryIds.get(c)!))],
      keywords: [...new Set(company.keywords.map((k) => k.toLowerCase()))],
      segments: company.segment,
      model: company.model,
      founded: company.founded,
      hq: company.hq,
      size: company.size,
      reviewed: company.reviewed ?? reviewedOf.get(sector)!,
      defunct: company.defunct ?? false,
      // Settled once the parents and lists are known (assignOwnership).
      ownership: 'private',
      exchange: company.listed?.exchange ?? null,
      ticker: company.listed?.ticker ?? null,
    });
  }

  const resolve = (host: string) => byHost.get(host) ?? byHost.get(registrable(host));
  for (const sector of sectors) {
    for (const c of sector.categories) {
      const index = categoryIds.get(c.id)!;
      for (const r of c.related) {
        if (!categoryIds.has(r)) problems.push(`${sector.sector}: category ${c.id}: related ${r} is not a category`);
        else if (r !== c.id) categories[index]!.related.push(categoryIds.get(r)!);
      }
      for (const member of c.members) {
        const e = byHost.get(member);
        if (e === undefined) problems.push(`${sector.sector}: category ${c.id}: member ${member} is not an entry`);
        else if (!entities[e]!.categories.includes(index)) entities[e]!.categories.push(index);
      }
    }
  }

  const relations: KbIndex['relations'] = [];
  const seenRelation = new Set<string>();
  const addRelation = (from: number, to: number, kind: (typeof RELATION_KINDS)[number], strength: number) => {
    const key = `${from}:${to}:${kind}`;
    if (seenRelation.has(key)) return;
    seenRelation.add(key);
    relations.push([from, to, RELATION_KINDS.indexOf(kind), Math.round(strength * 100) / 100]);
  };
  for (const { sector, company } of specs) {
    const from = byHost.get(company.domain)!;
    if (company.parent) {
      const parent = resolve(company.parent);
      if (parent === undefined) problems.push(`${sector}: ${company.domain}: parent ${company.parent} is not an entry`);
      else if (parent === from) problems.push(`${sector}: ${company.domain}: is its own parent`);
      else {
        entities[from]!.parent = parent;
        addRelation(from, parent, 'parent', 1);
        addRelation(parent, from, 'subsidiary', 1);
      }
    }
    for (const kind of AUTHORED_RELATIONS) {
      for (const [target, strength] of Object.entries(company[kind] ?? {})) {
        const to = resolve(target);
        if (to === undefined) problems.push(`${sector}: ${company.domain}: ${kind} target ${target} is not an entry`);
        else if (to === from) problems.push(`${sector}: ${company.domain}: ${kind} relation to itself`);
        else addRelation(from, to, kind, strength);
      }
    }
  }

  // A product line is reported under its company's domain (Xbox -> microsoft.com), named by the product: the API's
  // `domain` is the company's website. Subsidiaries that are companies of their own keep their own domains.
  entities.forEach((e) => {
    let owner = e;
    for (let hops = 0; owner.product && owner.parent >= 0 && hops < 10; hops++) owner = entities[owner.parent]!;
    if (owner !== e) e.domain = owner.domain;
  });

  entities.forEach((e, i) => {
    const seen = new Set([i]);
    for (let p = e.parent; p >= 0; p = entities[p]!.parent) {
      if (seen.has(p)) {
        problems.push(`${e.host}: its parent chain loops back to ${entities[p]!.host}`);
        break;
      }
      seen.add(p);
    }
  });

  const counts = new Array<number>(categories.length).fill(0);
  for (const e of entities) for (const c of e.categories) counts[c]!++;
  categories.forEach((c, i) => {
    if (counts[i]! < MIN_CATEGORY_MEMBERS) problems.push(`category ${c.id} holds ${counts[i]} entries; at least ${MIN_CATEGORY_MEMBERS} are needed`);
  });

  const vocabulary = new Map<string, number>();
  const termIds = (text: string) =>
    tokenize(text).map((term) => {
      let id = vocabulary.get(term);
      if (id === undefined) vocabulary.set(term, (id = vocabulary.size));
      return id;
    });
  const text = {
    entities: entities.map((e) => termIds(entityText(e, e.categories.map((c) => categories[c]!.name)))),
    categories: categories.map((c) => termIds(categoryText(c))),
    vocabulary: [] as string[],
  };
  text.vocabulary = [...vocabulary.keys()];

  // Coverage by construction: every company a list names must be an entry (by its domain or one of its aliases).
  const listings: Parameters<typeof assignOwnership>[1] = [];
  const lists: KbList[] = [...listFiles]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((file) => {
      const list = parseList(file, problems);
      const members: number[] = [];
      for (const domain of list.domains) {
        const e = resolve(domain);
        if (e === undefined) problems.push(`lists/${file.name}: ${domain} has no entry`);
        else {
          members.push(e);
          if (list.exchange) listings.push({ entity: e, exchange: list.exchange, ticker: list.tickers.get(domain) ?? null });
        }
      }
      return { id: list.id, name: list.name, asOf: list.asOf, entities: members, ...(list.exchange ? { exchange: list.exchange } : {}) };
    });
  assignOwnership(entities, listings);

  const body = { sectors: sectors.map((s) => ({ id: s.sector, name: s.name })), categories, entities, relations, text };
  const version = createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 12);
  return { index: { version, ...body }, lists, problems };
}

/** The two-level taxonomy as a Markdown page, generated from the sector files (TAXONOMY.md). */
export function taxonomyMarkdown(index: KbIndex): string {
  const counts = new Array<number>(index.categories.length).fill(0);
  for (const e of index.entities) for (const c of e.categories) counts[c]!++;
  const lines = [
    '# Taxonomy',
    '',
    `Generated by \`npm run kb:build\` from data/sectors/: ${index.sectors.length} sectors, ${index.categories.length} categories, ${index.entities.length} entries. Do not edit by hand.`,
    '',
  ];
  index.sectors.forEach((sector, s) => {
    lines.push(`## ${sector.name} (\`${sector.id}\`)`, '', '| Category | Entries | What it holds | Related |', '|---|---|---|---|');
    index.categories.forEach((c, i) => {
      if (c.sector !== s) return;
      const related = c.related.map((r) => `\`${index.categories[r]!.id}\``).join(', ');
      lines.push(`| ${c.name} (\`${c.id}\`) | ${counts[i]} | ${c.description.replace(/\|/g, '/')} | ${related} |`);
    });
    lines.push('');
  });
  return lines.join('\n');
}

export const TAXONOMY_PATH = join(here, '..', 'TAXONOMY.md');

const readDir = (dir: string, ending: string): SourceFile[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(ending))
        .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }))
    : [];

export const readSectorFiles = (dir = SECTORS_DIR) => readDir(dir, '.yaml');
export const readListFiles = (dir = LISTS_DIR) => readDir(dir, '.txt');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  const { index, lists, problems } = compile(readSectorFiles(), readListFiles());
  if (problems.length) {
    for (const p of problems.slice(0, 200)) console.error(`kb: ${p}`);
    if (problems.length > 200) console.error(`kb: ... and ${problems.length - 200} more`);
    console.error(`kb: ${problems.length} problem(s); the index was not written`);
    process.exit(1);
  }
  mkdirSync(dirname(INDEX_PATH), { recursive: true });
  writeFileSync(INDEX_PATH, JSON.stringify(index));
  writeFileSync(TAXONOMY_PATH, taxonomyMarkdown(index));
  console.log(
    `kb: ${index.entities.length} entries, ${index.categories.length} categories in ${index.sectors.length} sectors, ${index.relations.length} relations, ${lists.length} lists -> ${INDEX_PATH} (${Math.round(performance.now() - started)} ms)`,
  );
}
