// engine: the knowledge base in memory: lookups by domain, relation adjacency in both directions, category
// members, and text vectors of every entry and category. Built once per process from the compiled index.
import type { Firmographics } from '@rivals/contracts';
import { RELATION_KINDS, type KbEntity, type KbIndex, type RelationKind } from '@rivals/kb';
import { TextIndex, type SparseVector } from './text.js';

/**
 * A parent competes where its product lines compete (Microsoft through Teams), at this share of their weight. An
 * acquired subsidiary speaks for its parent less, and a much smaller one (two size bands or more) less again: a
 * small acquisition's rivals are not the parent's.
 */
const PRODUCT_SHARE = 0.6;
const SUBSIDIARY_SHARE = 0.45;
const SMALL_SUBSIDIARY_FACTOR = 0.5;
const SIZE_ORDER = ['1-10', '11-50', '51-200', '201-500', '501-1000', '1001-5000', '5001-10000', '10001+'];

/** Prior per doubling of the entries that name a company as a rival; small beside any real signal. */
const PROMINENCE_WEIGHT = 0.08;

export interface Edge {
  /** The other end: the target of an outgoing edge, the source of an incoming one. */
  other: number;
  kind: RelationKind;
  strength: number;
}

export class KnowledgeModel {
  readonly byHost = new Map<string, number>();
  readonly byDomain = new Map<string, number[]>();
  readonly outgoing: Edge[][];
  readonly incoming: Edge[][];
  readonly members: number[][];
  readonly children: number[][];
  readonly text: TextIndex;
  readonly categoryVectors: SparseVector[];
  /** Entries' text vectors, each built on first use (see vector()). */
  private readonly entityVectors: (SparseVector | undefined)[];
  /** How well known an entry is among its peers: grows with how many entries name it as a rival (log scale). */
  readonly prominence: number[];

  constructor(readonly index: KbIndex) {
    const { entities, categories, relations } = index;
    entities.forEach((e, i) => {
      for (const host of [e.host, ...e.otherDomains]) this.byHost.set(host, i);
      const list = this.byDomain.get(e.domain) ?? [];
      list.push(i);
      this.byDomain.set(e.domain, list);
    });
    // Main entries first: the company itself speaks for its domain, not one of its product lines.
    for (const list of this.byDomain.values()) list.sort((a, b) => Number(entities[a]!.product) - Number(entities[b]!.product) || a - b);

    this.outgoing = entities.map(() => []);
    this.incoming = entities.map(() => []);
    for (const [from, to, kind, strength] of relations) {
      const k = RELATION_KINDS[kind]!;
      this.outgoing[from]!.push({ other: to, kind: k, strength });
      this.incoming[to]!.push({ other: from, kind: k, strength });
    }
    this.members = categories.map(() => []);
    entities.forEach((e, i) => e.categories.forEach((c) => this.members[c]!.push(i)));
    this.children = entities.map(() => []);
    entities.forEach((e, i) => e.parent >= 0 && this.children[e.parent]!.push(i));

    const { vocabulary, entities: entityTerms, categories: categoryTerms } = index.text;
    this.text = new TextIndex(vocabulary, [...entityTerms, ...categoryTerms]);
    this.entityVectors = new Array<SparseVector | undefined>(entityTerms.length);
    this.categoryVectors = categoryTerms.map((terms) => this.text.vectorize(terms));
    this.prominence = this.incoming.map((edges) => {
      const namedBy = edges.filter((e) => e.kind === 'competes' || e.kind === 'alternative').length;
      return PROMINENCE_WEIGHT * Math.log2(1 + namedBy);
    });
  }


  /** How much a product line or subsidiary speaks for its parent: its relations and its categories count this much. */
  childShare(parent: number, child: number): number {
    const c = this.entity(child);
    if (c.product) return PRODUCT_SHARE;
    const gap = SIZE_ORDER.indexOf(this.entity(parent).size) - SIZE_ORDER.indexOf(c.size);
    return SUBSIDIARY_SHARE * (gap >= 2 ? SMALL_SUBSIDIARY_FACTOR : 1);
  }

  /**
   * An entry's text vector. Built on first use and kept: a search of a known company compares only its candidates (a
   * few hundred), so vectorising all ~17,000 entries at load would add a third to the cold start for nothing.
   */
  vector(i: number): SparseVector {
    return (this.entityVectors[i] ??= this.text.vectorize(this.index.text.entities[i]!));
  }

  /**
   * Who the company a row reports is: the entry's own facts, or for a product line (reported under its company's
   * domain, "Microsoft Teams" at microsoft.com) its company's.
   */
  firmographics(i: number): Firmographics {
    const e = this.entity(i);
    const o = e.product ? this.entity(this.resolve(e.domain) ?? i) : e;
    return { founded: o.founded, size: o.size as Firmographics['size'], hq: o.hq, ownership: o.ownership, exchange: o.exchange, ticker: o.ticker };
  }

  entity(i: number): KbEntity {
    return this.index.entities[i]!;
  }

  /** The entry that speaks for a registrable domain: an exact host or alias domain first, then the domain's main entry. */
  resolve(domain: string): number | undefined {
    return this.byHost.get(domain) ?? this.byDomain.get(domain)?.[0];
  }
}
