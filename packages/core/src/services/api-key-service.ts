// core use case: API keys. A key is shown once; only its SHA-256 is stored and looked up.
import { createHash, randomInt } from 'node:crypto';
import { ApiError } from '../errors.js';
import type { ApiKeyRecord, ApiKeyStore, Clock, IdGenerator } from '../ports.js';

export const API_KEY_PREFIX = 'sk-live-';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 40; // 40 base62 characters: about 238 bits
const KEY_SHAPE = /^sk-live-[0-9A-Za-z]{32,128}$/;

export const hashApiKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');
export const isWellFormedApiKey = (key: string) => KEY_SHAPE.test(key);

export function generateApiKey(): string {
  let secret = '';
  for (let i = 0; i < SECRET_LENGTH; i++) secret += BASE62[randomInt(BASE62.length)];
  return API_KEY_PREFIX + secret;
}

export interface IssuedApiKey {
  record: ApiKeyRecord;
  /** The key itself: returned once, never stored. */
  key: string;
}

export interface Principal {
  accountId: string;
  keyId: string;
}

export class ApiKeyService {
  constructor(private readonly deps: { keys: ApiKeyStore; clock: Clock; ids: IdGenerator }) {}

  async issue(accountId: string, name = 'default', presetKey?: string): Promise<IssuedApiKey> {
    const key = presetKey ?? generateApiKey();
    if (!isWellFormedApiKey(key)) throw new ApiError('invalid_request', 'An API key is sk-live- followed by at least 32 base62 characters.');
    const record: ApiKeyRecord = {
      id: this.deps.ids.next('key'),
      accountId,
      name,
      hash: hashApiKey(key),
      prefix: key.slice(0, API_KEY_PREFIX.length + 4),
      last4: key.slice(-4),
      createdAt: this.deps.clock.now().toISOString(),
      lastUsedAt: null,
      revokedAt: null,
    };
    await this.deps.keys.create(record);
    return { record, key };
  }

  /** The principal of a live key, or null for a malformed, unknown or revoked one, or one whose account is gone. */
  async authenticate(key: string): Promise<Principal | null> {
    if (!isWellFormedApiKey(key)) return null;
    const record = await this.deps.keys.findByHash(hashApiKey(key));
    if (!record || record.revokedAt) return null;
    if (!(await this.deps.keys.accountExists(record.accountId))) return null;
    return { accountId: record.accountId, keyId: record.id };
  }

  list(accountId: string): Promise<ApiKeyRecord[]> {
    return this.deps.keys.list(accountId);
  }

  async revoke(accountId: string, keyId: string): Promise<void> {
    await this.deps.keys.revoke(accountId, keyId, this.deps.clock.now().toISOString());
  }
}
