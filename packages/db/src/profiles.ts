// db adapter (secondary): cached homepage profiles of unknown domains, expired by DynamoDB's TTL.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { HomepageProfile, ProfileCache } from '@rivals/core';
import type { TableRef } from './client.js';
import { keys } from './keys.js';

export const PROFILE_TTL_SECONDS = 7 * 24 * 60 * 60;

export class DynamoProfileCache implements ProfileCache {
  constructor(private readonly table: TableRef, private readonly ttlSeconds = PROFILE_TTL_SECONDS) {}

  async get(domain: string): Promise<HomepageProfile | null> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.tableName, Key: keys.profile(domain) }));
    // TTL deletion is lazy (up to days late); an expired item is a miss.
    if (!Item || Number(Item.ttl) * 1000 < Date.now()) return null;
    return Item.profile as HomepageProfile;
  }

  async put(profile: HomepageProfile): Promise<void> {
    // Unconditional on purpose: a cache entry carries no money or state, and the newest read of a homepage wins.
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: { ...keys.profile(profile.domain), profile, ttl: Math.floor(Date.now() / 1000) + this.ttlSeconds },
      }),
    );
  }
}
