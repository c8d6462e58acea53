// db adapter (secondary): the discovered layer of the knowledge base (core/discovered.ts). A company is one item in its
// own partition; each of its categories holds a small membership item with what a search reads of it, so a search
// reads a category with one Query. Learned relations sit in both ends' partitions. Bans are items of their own.
import { BatchGetCommand, type BatchGetCommandOutput, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { BannedDomain, DiscoveredCandidate, DiscoveredCompany, DiscoveredStore, DiscoveredSummary, LearnedEdge, LearnedRelation, Page, PageRequest, SaveOutcome } from '@rivals/core';
import { transact, queryPages, type TableRef } from './client.js';
import { CONDITIONS, isConditionFailure } from './conditions.js';
import { GSI1, keys, withoutKeys } from './keys.js';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/** What a search reads of a member: the projection, by attribute name. */
const MEMBER_PROJECTION = ['domain', 'name', 'categories', 'terms', 'fetchedAt', 'language', 'country'] as const;

const EDGE_PROJECTION = ['other', 'direction', 'votes', 'verifiedAt', 'company'] as const;

/** A projection of attribute names, each through a placeholder (several are DynamoDB reserved words). */
const projection = (names: readonly string[]) => ({
  ProjectionExpression: names.map((_, n) => `#a${n}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(names.map((name, n) => [`#a${n}`, name])),
});

export class DynamoDiscoveredStore implements DiscoveredStore {
  /** The summary as this process last read or wrote it: a name already in it is not written again. */
  private known: DiscoveredSummary = { categories: new Set(), related: new Set() };

  constructor(private readonly table: TableRef) {}

  async summary(): Promise<DiscoveredSummary> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.tableName, Key: keys.discoveredSummary() }));
    this.known = { categories: new Set((Item?.categories as Set<string> | undefined) ?? []), related: new Set((Item?.related as Set<string> | undefined) ?? []) };
    return { categories: new Set(this.known.categories), related: new Set(this.known.related) };
  }

  /**
   * Adds names to the summary (a set union, so concurrent writers never lose one). Written only for names this process
   * has not seen there, so the item is written about once per category ever, and once per domain given a relation.
   */
  private async note(categories: string[], related: string[]): Promise<void> {
    const newCategories = categories.filter((c) => !this.known.categories.has(c));
    const newRelated = related.filter((d) => !this.known.related.has(d));
    if (newCategories.length === 0 && newRelated.length === 0) return;
    const parts: string[] = [];
    const values: Record<string, Set<string>> = {};
    if (newCategories.length) [parts[parts.length], values[':c']] = ['categories :c', new Set(newCategories)];
    if (newRelated.length) [parts[parts.length], values[':r']] = ['related :r', new Set(newRelated)];
    await this.table.client.send(new UpdateCommand({ TableName: this.table.tableName, Key: keys.discoveredSummary(), UpdateExpression: `ADD ${parts.join(', ')}`, ExpressionAttributeValues: values }));
    for (const c of newCategories) this.known.categories.add(c);
    for (const d of newRelated) this.known.related.add(d);
  }

  async membersOf(category: string, limit: number): Promise<DiscoveredCandidate[]> {
    const { pk } = keys.discoveredMembersOf(category);
    const { Items = [] } = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ...projection(MEMBER_PROJECTION),
        Limit: limit,
      }),
    );
    return Items as DiscoveredCandidate[];
  }

  async get(domain: string): Promise<DiscoveredCompany | null> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.tableName, Key: keys.discovered(domain) }));
    return Item ? withoutKeys<DiscoveredCompany>(Item) : null;
  }

  async save(company: DiscoveredCompany): Promise<SaveOutcome> {
    const previous = await this.get(company.domain);
    const member: DiscoveredCandidate = {
      domain: company.domain,
      name: company.name,
      categories: company.categories,
      terms: company.terms,
      fetchedAt: company.fetchedAt,
      language: company.language,
      country: company.country,
    };
    const memberships = company.aliasOf ? [] : company.categories;
    const next = new Set(memberships.map((c) => keys.discoveredMember(c.id, c.weight, company.domain).sk + c.id));
    const stale = (previous && !previous.aliasOf ? previous.categories : []).filter((c) => !next.has(keys.discoveredMember(c.id, c.weight, company.domain).sk + c.id));
    try {
      await transact(this.table, {
        TransactItems: [
          { ConditionCheck: { TableName: this.table.tableName, Key: keys.bannedDomain(company.domain), ConditionExpression: CONDITIONS.isNew } },
          { Put: { TableName: this.table.tableName, Item: { ...keys.discovered(company.domain), ...keys.discoveredListed(company.domain), ...company } } },
          ...stale.map((c) => ({ Delete: { TableName: this.table.tableName, Key: keys.discoveredMember(c.id, c.weight, company.domain) } })),
          ...memberships.map((c) => ({ Put: { TableName: this.table.tableName, Item: { ...keys.discoveredMember(c.id, c.weight, company.domain), ...member } } })),
        ],
      });
      await this.note(memberships.map((c) => c.id), []);
      return 'saved';
    } catch (error) {
      if (error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return 'banned';
      throw error;
    }
  }

  async remove(domain: string): Promise<void> {
    const previous = await this.get(domain);
    if (!previous) return;
    await transact(this.table, {
      TransactItems: [
        { Delete: { TableName: this.table.tableName, Key: keys.discovered(domain) } },
        ...(previous.aliasOf ? [] : previous.categories).map((c) => ({ Delete: { TableName: this.table.tableName, Key: keys.discoveredMember(c.id, c.weight, domain) } })),
      ],
    });
  }

  async edgesOf(domain: string, limit: number): Promise<LearnedEdge[]> {
    const { pk, skPrefix } = keys.learnedEdgesOf(domain);
    const { Items = [] } = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
        ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix },
        ...projection(EDGE_PROJECTION),
        Limit: limit,
      }),
    );
    return Items as LearnedEdge[];
  }

  async saveRelation(relation: LearnedRelation, ends: { from?: DiscoveredCandidate; to?: DiscoveredCandidate } = {}): Promise<void> {
    const { from, to, votes, verifiedAt } = relation;
    await transact(this.table, {
      TransactItems: [
        { Put: { TableName: this.table.tableName, Item: { ...keys.learnedEdge(from, to), other: to, direction: 'out', votes, verifiedAt, source: 'provider', company: ends.to } } },
        { Put: { TableName: this.table.tableName, Item: { ...keys.learnedEdge(to, from), other: from, direction: 'in', votes, verifiedAt, source: 'provider', company: ends.from } } },
      ],
    });
    await this.note([], [from, to]);
  }

  async bannedAmong(domains: string[]): Promise<Set<string>> {
    const banned = new Set<string>();
    const unique = [...new Set(domains)];
    for (let at = 0; at < unique.length; at += 100) {
      let request: Record<string, { Keys: Record<string, unknown>[]; ProjectionExpression?: string }> | undefined = {
        [this.table.tableName]: { Keys: unique.slice(at, at + 100).map((d) => keys.bannedDomain(d)), ProjectionExpression: 'pk' },
      };
      // Unprocessed keys (throttling) are asked again; the SDK already backs off between attempts.
      for (let attempt = 0; request && attempt < 5; attempt++) {
        const answer: BatchGetCommandOutput = await this.table.client.send(new BatchGetCommand({ RequestItems: request }));
        for (const item of answer.Responses?.[this.table.tableName] ?? []) banned.add(String(item.pk).slice('BANNED#'.length));
        const rest = answer.UnprocessedKeys;
        request = rest && Object.keys(rest).length ? (rest as typeof request) : undefined;
      }
    }
    return banned;
  }

  async ban(entry: BannedDomain): Promise<void> {
    await this.table.client.send(new PutCommand({ TableName: this.table.tableName, Item: { ...keys.bannedDomain(entry.domain), ...keys.bannedListed(entry.domain), ...entry } }));
    await this.remove(entry.domain);
  }

  async unban(domain: string): Promise<boolean> {
    try {
      await this.table.client.send(new DeleteCommand({ TableName: this.table.tableName, Key: keys.bannedDomain(domain), ConditionExpression: CONDITIONS.exists }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async isBanned(domain: string): Promise<boolean> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.tableName, Key: keys.bannedDomain(domain), ProjectionExpression: 'pk' }));
    return Item !== undefined;
  }

  /** Domains in order, across the listing shards; the cursor is the last domain of the previous page. */
  async list({ limit, cursor }: PageRequest): Promise<Page<DiscoveredCompany>> {
    const pages = await Promise.all(
      keys.discoveredShards().map((shard) =>
        this.table.client.send(
          new QueryCommand({
            TableName: this.table.tableName,
            IndexName: GSI1,
            KeyConditionExpression: cursor ? 'gsi1pk = :pk AND gsi1sk > :after' : 'gsi1pk = :pk',
            ExpressionAttributeValues: { ':pk': shard, ...(cursor ? { ':after': cursor } : {}) },
            Limit: limit + 1,
          }),
        ),
      ),
    );
    const all = pages.flatMap((p) => p.Items ?? []).map((item) => withoutKeys<DiscoveredCompany>(item));
    all.sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
    const items = all.slice(0, limit);
    return { items, nextCursor: all.length > limit ? items[items.length - 1]!.domain : null };
  }

  async bans(): Promise<BannedDomain[]> {
    const bans: BannedDomain[] = [];
    for await (const page of queryPages(this.table, { IndexName: GSI1, KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.bannedDomains().gsi1pk } })) {
      for (const item of page.Items ?? []) bans.push(withoutKeys<BannedDomain>(item));
    }
    return bans;
  }
}
