// core use case: API keys. A key is shown once; only its SHA-256 is stored and looked up. Keys are created and revoked
// by their account (the API) or by an operator (the admin command); the API never leaves an account without a key.
import { createHash, randomInt } from 'node:crypto';
import { API_KEY_ID_PATTERN, MAX_ACTIVE_API_KEYS } from '@rivals/contracts';
import { ApiError, notFound } from '../errors.js';
import type { ApiKeyRecord, ApiKeyStore, AuthorizerCache, Clock, IdGenerator, Page, PageRequest } from '../ports.js';

export const API_KEY_PREFIX = 'sk-live-';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 40; // 40 base62 characters: about 238 bits
const KEY_SHAPE = /^sk-live-[0-9A-Za-z]{32,128}$/;
/** lastUsedAt is written at most once a minute per key. */
export const LAST_USED_RESOLUTION_MS = 60_000;

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

export interface ApiKeyServiceDeps {
  keys: ApiKeyStore;
  clock: Clock;
  ids: IdGenerator;
  /** Told about a failed lastUsedAt write, which never fails the request it belongs to. */
  onTouchFailure?: (error: unknown) => void;
  /** Emptied after every revocation; absent where nothing caches the authorizer's answers (tests, a bare table). */
  authorizerCache?: AuthorizerCache;
}

export class ApiKeyService {
  constructor(private readonly deps: ApiKeyServiceDeps) {}

  /** A key created by its account through the API: at most MAX_ACTIVE_API_KEYS live keys an account. */
  create(accountId: string, name: string | null = null): Promise<IssuedApiKey> {
    return this.mint(accountId, name, undefined, MAX_ACTIVE_API_KEYS);
  }

  /** A key issued by an operator (admin command, local development account), optionally a preset one. */
  issue(accountId: string, name: string | null = 'default', presetKey?: string): Promise<IssuedApiKey> {
    return this.mint(accountId, name, presetKey, null);
  }

  private async mint(accountId: string, name: string | null, presetKey: string | undefined, maxActive: number | null): Promise<IssuedApiKey> {
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
    await this.deps.keys.create(record, { maxActive });
    return { record, key };
  }

  /**
   * The principal of a live key; null for a malformed, unknown or revoked key, or one whose account is gone. Every
   * read is strongly consistent, so a key works the moment it is created and stops the moment it is revoked. The
   * lastUsedAt write runs alongside the second read, so it adds no wait of its own.
   */
  async authenticate(key: string): Promise<Principal | null> {
    if (!isWellFormedApiKey(key)) return null;
    const claim = await this.deps.keys.findClaim(hashApiKey(key));
    if (!claim || claim.revokedAt) return null;
    const now = this.deps.clock.now();
    const [owned] = await Promise.all([
      this.deps.keys.loadOwned(claim.accountId, claim.keyId),
      this.deps.keys
        .touch(claim.accountId, claim.keyId, now.toISOString(), new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString())
        .catch((error: unknown) => this.deps.onTouchFailure?.(error)),
    ]);
    if (!owned.accountExists || !owned.record || owned.record.revokedAt) return null;
    return { accountId: claim.accountId, keyId: claim.keyId };
  }

  /**
   * Whether the principal's key is still live and its account still open, read with strong consistency whatever any
   * cache in front of the authorizer says. The routes that change access (keys, webhook secret and endpoints) ask it on
   * every call, so a revoked key can never mint a key or lock its owner out, even within the cache's TTL.
   */
  async isLive(principal: Principal): Promise<boolean> {
    const owned = await this.deps.keys.loadOwned(principal.accountId, principal.keyId);
    return owned.accountExists && owned.record !== null && !owned.record.revokedAt;
  }

  list(accountId: string, page: PageRequest): Promise<Page<ApiKeyRecord>> {
    return this.deps.keys.list(accountId, page);
  }

  /**
   * Revokes one of the account's keys; revoking a revoked key again changes nothing. An unknown key, or another
   * account's, is not_found. Through the API (`keepOneActive`), the account's last live key cannot be revoked.
   */
  async revoke(accountId: string, keyId: string, options: { keepOneActive?: boolean } = {}): Promise<void> {
    if (!API_KEY_ID_PATTERN.test(keyId)) throw notFound('API key');
    const outcome = await this.deps.keys.revoke(accountId, keyId, this.deps.clock.now().toISOString(), { keepOneActive: options.keepOneActive ?? true });
    if (outcome === 'not_found') throw notFound('API key');
    if (outcome === 'last_active_key')
      throw new ApiError('conflict', "This is the account's last active API key; create another key before revoking it.");
    // Also when it was already revoked: a retry after a failed flush flushes again. A failure here fails the call (the
    // key stays revoked), so the caller retries until the cache is empty.
    await this.deps.authorizerCache?.flush();
  }

  /**
   * An operator closes an account: every live key revoked (the last one too), then the authorizer's cache emptied, so
   * that none of them is let through again. The account's data stays (credits, searches); issuing a key reopens it.
   */
  async revokeAll(accountId: string): Promise<string[]> {
    const revoked: string[] = [];
    let cursor: string | undefined;
    do {
      const page: Page<ApiKeyRecord> = await this.deps.keys.list(accountId, { limit: 100, cursor });
      for (const record of page.items) {
        if (record.revokedAt) continue;
        const outcome = await this.deps.keys.revoke(accountId, record.id, this.deps.clock.now().toISOString(), { keepOneActive: false });
        if (outcome === 'revoked') revoked.push(record.id);
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    await this.deps.authorizerCache?.flush();
    return revoked;
  }
}
