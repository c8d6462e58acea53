// core use case: share links. A link is a random token of 256 bits; the public lookup is keyed by its SHA-256, and
// the token itself is kept only on the owner's search, so that sharing again returns the same live link.
import { createHash, randomBytes } from 'node:crypto';
import type { ShareLink, SharedSearch } from '@rivals/contracts';
import { ApiError, notFound } from '../errors.js';
import type { Clock, SearchStore, ShareRecord, ShareStore } from '../ports.js';
import { ownSearch, storedCompetitors } from './search-queries.js';

const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const hashShareToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
export const generateShareToken = () => randomBytes(TOKEN_BYTES).toString('base64url');

export interface ShareServiceDeps {
  searches: SearchStore;
  shares: ShareStore;
  clock: Clock;
  /** The dashboard's origin (PUBLIC_BASE_URL), to make links absolute; a call may name the origin it came to instead. */
  publicBaseUrl?: string;
}

export class ShareService {
  constructor(private readonly deps: ShareServiceDeps) {}

  /** The search's live link: a new one (created: true), or the one it has. Only a succeeded search can be shared. */
  async share(accountId: string, searchId: string, origin?: string): Promise<{ link: ShareLink; created: boolean }> {
    const { searches, shares, clock } = this.deps;
    const linkOf = (share: ShareRecord) => this.link(share, origin);
    const search = await ownSearch(searches, accountId, searchId);
    if (!search) throw notFound('search');
    if (search.share) return { link: linkOf(search.share), created: false };
    if (search.status !== 'succeeded') throw new ApiError('conflict', `Only a succeeded search can be shared; this one is ${search.status}.`);
    const share = { token: generateShareToken(), createdAt: clock.now().toISOString() };
    if (await shares.create(accountId, searchId, { ...share, hash: hashShareToken(share.token) })) return { link: linkOf(share), created: true };
    // Another request shared it at the same moment: answer with its link.
    const again = await searches.get(accountId, searchId);
    if (again?.share) return { link: linkOf(again.share), created: false };
    throw new ApiError('conflict', 'The search changed while it was being shared; retry.');
  }

  /** Revokes the search's link, if it has one. The next share makes a new token. */
  async revoke(accountId: string, searchId: string): Promise<void> {
    const search = await ownSearch(this.deps.searches, accountId, searchId);
    if (!search) throw notFound('search');
    if (search.share) await this.deps.shares.revoke(accountId, searchId);
  }

  /** The shared search, read-only: no account, no search id, no job. not_found for an unknown or revoked token. */
  async read(token: string): Promise<SharedSearch> {
    const search = TOKEN_SHAPE.test(token) ? await this.deps.shares.findByHash(hashShareToken(token)) : null;
    if (!search || search.share?.token !== token || search.status !== 'succeeded') throw notFound('shared search');
    return {
      domain: search.domain,
      ...(search.seeds ? { seeds: search.seeds } : {}),
      createdAt: search.createdAt,
      completedAt: search.completedAt ?? null,
      totalCompetitors: search.totalCompetitors ?? 0,
      likelyCompetitors: search.likelyCompetitors ?? 0,
      competitors: storedCompetitors(search),
    };
  }

  private link(share: ShareRecord, origin?: string): ShareLink {
    const base = (this.deps.publicBaseUrl ?? origin ?? '').replace(/\/+$/, '');
    return { token: share.token, url: `${base}/share/${share.token}`, createdAt: share.createdAt };
  }
}
