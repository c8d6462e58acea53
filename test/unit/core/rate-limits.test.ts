// The token-bucket arithmetic with a fake clock: bursts, refill, refusals that take nothing, several buckets at once.
import { describe, expect, it } from 'vitest';
import { authenticationBuckets, bucketDecision, clientAddressBucket, MemoryRateLimiter, requestBuckets, takeToken, type Clock, type RateRule } from '@rivals/core';

const fakeClock = (start = Date.parse('2026-01-01T00:00:00Z')) => {
  let now = start;
  const clock: Clock = { now: () => new Date(now) };
  return { clock, advance: (ms: number) => void (now += ms) };
};
const rule: RateRule = { perSecond: 10, burst: 20 };
const takeMany = async (limiter: MemoryRateLimiter, n: number, bucket = 'key:k') => {
  const answers = [];
  for (let i = 0; i < n; i++) answers.push(await limiter.take([{ bucket, rule }]));
  return answers;
};

describe('token buckets', () => {
  it('lets a full bucket burst exactly `burst` requests, counting down RateLimit-Remaining', async () => {
    const limiter = new MemoryRateLimiter(fakeClock().clock);
    const answers = await takeMany(limiter, 25);
    expect(answers.filter((a) => a?.allowed)).toHaveLength(20);
    expect(answers.slice(0, 3).map((a) => a?.remaining)).toEqual([19, 18, 17]);
    expect(answers[19]).toMatchObject({ allowed: true, remaining: 0, limit: 20, resetSeconds: 2 });
    expect(answers[20]).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
  });

  it('refills at perSecond: one token every 100 ms at 10/s, and never above the burst', async () => {
    const { clock, advance } = fakeClock();
    const limiter = new MemoryRateLimiter(clock);
    await takeMany(limiter, 20);
    expect((await limiter.take([{ bucket: 'key:k', rule }]))?.allowed).toBe(false);
    advance(100);
    expect((await limiter.take([{ bucket: 'key:k', rule }]))?.allowed).toBe(true);
    expect((await limiter.take([{ bucket: 'key:k', rule }]))?.allowed).toBe(false);
    advance(60_000);
    const answers = await takeMany(limiter, 21);
    expect(answers.filter((a) => a?.allowed)).toHaveLength(20);
  });

  it('takes nothing from any bucket when one of them refuses', async () => {
    const { clock } = fakeClock();
    const limiter = new MemoryRateLimiter(clock);
    const tight: RateRule = { perSecond: 1, burst: 1 };
    expect((await limiter.take([{ bucket: 'key:k', rule: tight }]))?.allowed).toBe(true);
    const both = await limiter.take([{ bucket: 'ip:a', rule }, { bucket: 'key:k', rule: tight }]);
    expect(both).toMatchObject({ allowed: false, limit: 1, retryAfterSeconds: 1 });
    expect(await limiter.take([{ bucket: 'ip:a', rule }])).toMatchObject({ allowed: true, remaining: 19 });
  });

  it('reports the bucket with the fewest tokens left', async () => {
    const limiter = new MemoryRateLimiter(fakeClock().clock);
    const answer = await limiter.take([{ bucket: 'ip:a', rule: { perSecond: 20, burst: 40 } }, { bucket: 'key:k', rule }]);
    expect(answer).toMatchObject({ allowed: true, limit: 20, remaining: 19 });
  });

  it('computes the wait of a refusal from the bucket state', () => {
    const now = 1_000_000_000;
    const slow: RateRule = { perSecond: 1, burst: 3 };
    // Three takes at once leave the bucket empty until one second has passed.
    let tat: number | null = null;
    for (let i = 0; i < 3; i++) tat = takeToken(slow, tat, now).tatUs;
    const refused = takeToken(slow, tat, now);
    expect(refused).toEqual({ allowed: false, tatUs: tat });
    expect(bucketDecision(slow, refused.tatUs, now, false)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 3, retryAfterSeconds: 1 });
    expect(takeToken(slow, tat, now + 1_000_000).allowed).toBe(true);
  });

  it('turns a rule off with 0, and limits keyless routes per IP only', () => {
    expect(requestBuckets({ key: rule, ip: { perSecond: 0, burst: 40 } }, { ip: '203.0.113.9', keyId: 'key_1' })).toEqual([{ bucket: 'key:key_1', rule }]);
    expect(requestBuckets({ key: rule, ip: rule }, { ip: '203.0.113.9' }).map((b) => b.bucket)).toEqual(['ip:203.0.113.9']);
  });
});

describe('IPv6 clients are limited by their /64', () => {
  it('names one bucket for every address of a /64, however it is written', () => {
    const same = ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0:0:0:9', '2001:db8:1:2:a:b:c:d%eth0', '2001:db8:1:2::192.0.2.1'];
    expect(new Set(same.map(clientAddressBucket))).toEqual(new Set(['2001:db8:1:2::/64']));
    expect(clientAddressBucket('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientAddressBucket('::1')).toBe('0:0:0:0::/64');
  });

  it('keeps IPv4 per address, and reads an IPv4-mapped IPv6 address as its IPv4 one', () => {
    expect(clientAddressBucket('203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddressBucket('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddressBucket('::ffff:cb00:7109')).toBe('203.0.113.9');
    expect(clientAddressBucket('not an address')).toBe('not an address');
  });

  it('refuses the 41st lookup from one /64 spread over 1,000 addresses, as from one address', async () => {
    const ip = { perSecond: 20, burst: 40 };
    const limiter = new MemoryRateLimiter(fakeClock().clock);
    let allowed = 0;
    for (let i = 0; i < 1000; i++) {
      const address = `2001:db8:feed:beef:${(i >> 8).toString(16)}:${(i & 255).toString(16)}:${i.toString(16)}:1`;
      const request = (await limiter.take(requestBuckets({ key: rule, ip }, { ip: address })))!;
      const lookup = (await limiter.take(authenticationBuckets({ key: rule, ip }, address)))!;
      if (request.allowed && lookup.allowed) allowed++;
    }
    expect(allowed).toBe(40);
    // Another /64 has its own bucket.
    expect((await limiter.take(requestBuckets({ key: rule, ip }, { ip: '2001:db8:feed:bee0::1' })))!.allowed).toBe(true);
  });
});
