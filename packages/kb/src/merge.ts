// kb: companies a team imported into its own deployment (`npm run admin -- kb import`), merged into the compiled
// index as curated entries: a new company becomes an entry; a known one gains the categories, keywords and relations
// the import gives it. Pure: the index in, a new index out (the original is not changed).
import { parse as parseDomain } from 'tldts';
import { AUTHORED_RELATIONS, RELATION_KINDS, type CompanySpec, type KbEntity, type KbIndex } from './schema.js';
import { entityText, tokenize } from './text.js';

const registrable = (host: string) => parseDomain(host, { allowPrivateDomains: true }).domain ?? host;

export function mergeImports(base: KbIndex, companies: CompanySpec[]): KbIndex {
  if (companies.length === 0) return base;
  const entities = [...base.entities];
  const textEntities = [...base.text.entities];
  const vocabulary = [...base.text.vocabulary];
  const termIndex = new Map(vocabulary.map((term, id) => [term, id]));
  const categoryIds = new Map(base.categories.map((c, i) => [c.id, i]));
  const byHost = new Map<string, number>();
  entities.forEach((e, i) => [e.host, ...e.otherDomains].forEach((h) => byHost.set(h, i)));
  const resolve = (host: string) => byHost.get(host) ?? byHost.get(registrable(host));
  const termIds = (text: string) =>
    tokenize(text).map((term) => {
      let id = termIndex.get(term);
      if (id === undefined) {
        termIndex.set(term, (id = vocabulary.length));
        vocabulary.push(term);
      }
      return id;
    });

  for (const company of companies) {
    const categories = company.categories.map((c) => categoryIds.get(c)).filter((c): c is number => c !== undefined);
    const known = byHost.get(company.domain);
    if (known !== undefined) {
      const e = entities[known]!;
      entities[known] = { ...e, categories: [...new Set([...e.categories, ...categories])], keywords: [...new Set([...e.keywords, ...company.keywords.map((k) => k.toLowerCase())])] };
    } else {
      const entity: KbEntity = {
        name: company.name, host: company.domain, domain: registrable(company.domain), otherDomains: company.domains, aliases: company.aliases, parent: -1,
        product: false, description: company.description, categories, keywords: [...new Set(company.keywords.map((k) => k.toLowerCase()))], segments: company.segment,
        model: company.model, founded: company.founded, hq: company.hq, size: company.size, reviewed: company.reviewed ?? new Date().toISOString().slice(0, 10), defunct: company.defunct ?? false,
        // An import names no parent entry, so a company is public only when it says where it is listed.
        ownership: company.listed ? 'public' : 'private', exchange: company.listed?.exchange ?? null, ticker: company.listed?.ticker ?? null,
      };
      for (const h of [company.domain, ...company.domains]) byHost.set(h, entities.length);
      entities.push(entity);
      textEntities.push([]);
    }
    const i = byHost.get(company.domain)!;
    const e = entities[i]!;
    textEntities[i] = termIds(entityText(e, e.categories.map((c) => base.categories[c]!.name)));
  }

  const relations = [...base.relations];
  for (const company of companies) {
    const from = byHost.get(company.domain)!;
    for (const kind of AUTHORED_RELATIONS) {
      for (const [target, strength] of Object.entries(company[kind] ?? {})) {
        const to = resolve(target);
        if (to !== undefined && to !== from) relations.push([from, to, RELATION_KINDS.indexOf(kind), strength]);
      }
    }
  }
  return { ...base, version: `${base.version}+imports`, entities, relations, text: { vocabulary, entities: textEntities, categories: base.text.categories } };
}
