// core: rate limits as token buckets (docs/api.md "Limits"). A bucket of `burst` tokens refills at `perSecond`; a request
// takes one token from each bucket that applies to it, or none at all when any of them is empty. The state of a
// bucket is one number, its theoretical arrival time (TAT, GCRA's form of a token bucket): the moment at which the
// bucket would be full again. It fits a single conditional write, so buckets hold across Lambda instances.
import { isIPv6 } from 'node:net';
import type { Clock } from './ports.js';

export interface RateRule {
  /** Tokens added a second; 0 turns the rule off. */
  perSecond: number;
  /** Tokens the bucket holds (the largest burst); 0 turns the rule off. */
  burst: number;
}

export interface RateLimits {
  /** Per API key, every keyed route. */
  key: RateRule;
  /** Per client IP, every route, keyed or not; also the authorizer's attempts per IP. */
  ip: RateRule;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { key: { perSecond: 10, burst: 20 }, ip: { perSecond: 20, burst: 40 } };

export interface BucketTake {
  /** The bucket's name, e.g. `key:key_01...` or `ip:203.0.113.9`. */
  bucket: string;
  rule: RateRule;
}

/** What a response says of the limit (the RateLimit-* headers) and, when refused, when to retry. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the binding bucket is full again. */
  resetSeconds: number;
  /** Seconds until a token is available again; 0 when allowed. */
  retryAfterSeconds: number;
}

/** Takes one token from every bucket, or from none (a refused request takes nothing). Null when no rule is on. */
export interface RateLimiter {
  take(buckets: BucketTake[]): Promise<RateLimitDecision | null>;
}

export const isRuleOn = (rule: RateRule) => rule.perSecond > 0 && rule.burst > 0;

const MICROS = 1_000_000;

/** Microseconds between two tokens. Times are whole microseconds since the epoch, exact in a double. */
export const tokenIntervalUs = (rule: RateRule) => Math.round(MICROS / rule.perSecond);

/** The latest TAT at which one more token may still be taken at `nowUs`. */
export const takeCeilingUs = (rule: RateRule, nowUs: number) => nowUs + (rule.burst - 1) * tokenIntervalUs(rule);

export const nowMicros = (clock: Clock) => clock.now().getTime() * 1000;

/** One take from a bucket whose TAT is `tatUs` (null: never used, so full). A refusal leaves the TAT as it was. */
export function takeToken(rule: RateRule, tatUs: number | null, nowUs: number): { allowed: boolean; tatUs: number } {
  const from = Math.max(tatUs ?? nowUs, nowUs);
  if (from > takeCeilingUs(rule, nowUs)) return { allowed: false, tatUs: from };
  return { allowed: true, tatUs: from + tokenIntervalUs(rule) };
}

/** The headers' view of one bucket after a take (allowed) or a refusal. */
export function bucketDecision(rule: RateRule, tatUs: number, nowUs: number, allowed: boolean): RateLimitDecision {
  const interval = tokenIntervalUs(rule);
  const from = Math.max(tatUs, nowUs);
  const remaining = Math.max(0, Math.min(rule.burst, Math.floor((nowUs + rule.burst * interval - from) / interval)));
  return {
    allowed,
    limit: rule.burst,
    remaining,
    resetSeconds: Math.ceil((from - nowUs) / MICROS),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((from - takeCeilingUs(rule, nowUs)) / MICROS)),
  };
}

/** Several buckets as one answer: refused if any refused (the longest wait), else the bucket with the fewest tokens left. */
export function combineDecisions(decisions: RateLimitDecision[]): RateLimitDecision | null {
  const refused = decisions.filter((d) => !d.allowed).sort((a, b) => b.retryAfterSeconds - a.retryAfterSeconds);
  if (refused[0]) return refused[0];
  return [...decisions].sort((a, b) => a.remaining - b.remaining || a.limit - b.limit)[0] ?? null;
}

/** The 8 hextets of an IPv6 address (`::` expanded, a trailing dotted IPv4 as two hextets); null when it is not one. */
function ipv6Hextets(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((h) => parseInt(h, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The bucket name of a client address. An IPv6 address counts as its /64: one subscriber (a home, a VM) is usually
 * given a whole /64, so per-address buckets would let it rotate through 2^64 of them. An IPv4-mapped IPv6 address
 * (::ffff:203.0.113.9) is its IPv4 address; an IPv4 address is itself.
 */
export function clientAddressBucket(address: string): string {
  const hextets = ipv6Hextets(address);
  if (!hextets) return address;
  if (hextets.slice(0, 5).every((h) => h === 0) && hextets[5] === 0xffff) {
    const [hi = 0, lo = 0] = hextets.slice(6);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  return `${hextets.slice(0, 4).map((h) => h.toString(16)).join(':')}::/64`;
}

/** The buckets of one request: its client IP (when known; an IPv6 one by its /64) and its API key (on keyed routes). */
export function requestBuckets(limits: RateLimits, who: { ip?: string | undefined; keyId?: string | undefined }): BucketTake[] {
  const buckets: BucketTake[] = [];
  if (who.ip && isRuleOn(limits.ip)) buckets.push({ bucket: `ip:${clientAddressBucket(who.ip)}`, rule: limits.ip });
  if (who.keyId && isRuleOn(limits.key)) buckets.push({ bucket: `key:${who.keyId}`, rule: limits.key });
  return buckets;
}

/** The authorizer's bucket: key lookups per client IP, so that a burst of guessed keys is refused before any read. */
export function authenticationBuckets(limits: RateLimits, ip: string | undefined): BucketTake[] {
  return ip && isRuleOn(limits.ip) ? [{ bucket: `auth:${clientAddressBucket(ip)}`, rule: limits.ip }] : [];
}

/** The limiter in one process's memory: the same arithmetic, for tests and single-process tools. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly tats = new Map<string, number>();
  constructor(private readonly clock: Clock) {}

  async take(buckets: BucketTake[]): Promise<RateLimitDecision | null> {
    const on = buckets.filter((b) => isRuleOn(b.rule));
    if (on.length === 0) return null;
    const now = nowMicros(this.clock);
    const takes = on.map((b) => takeToken(b.rule, this.tats.get(b.bucket) ?? null, now));
    const allowed = takes.every((t) => t.allowed);
    if (allowed) on.forEach((b, i) => this.tats.set(b.bucket, takes[i]!.tatUs));
    return combineDecisions(on.map((b, i) => bucketDecision(b.rule, takes[i]!.tatUs, now, takes[i]!.allowed)));
  }
}
