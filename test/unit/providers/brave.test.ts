// BraveSearchProvider against a local fake search API: the queries it sends and how it tallies domains from results.
import { describe, expect, it } from 'vitest';
import { BraveSearchProvider, ProviderError } from '@rivals/providers';
import { itHonoursCancellation } from './contract.js';
import { noAbort, target, useFakeServer, type Recorded } from './fake-server.js';

const server = useFakeServer();

const provider = (timeoutMs = 2_000) => new BraveSearchProvider({ apiKey: 'brave-key', baseUrl: `${server.url}/`, timeoutMs });
const result = (url: string, title: string, profile?: string) => ({ url, title, description: '…', ...(profile ? { profile: { name: profile } } : {}) });
const web = (...results: unknown[]) => ({ body: { type: 'search', web: { type: 'search', results } } });
const queryOf = (r: Recorded) => new URL(r.path, 'http://x').searchParams.get('q') ?? '';

const COMPETITOR_QUERY = [
  result('https://www.g2.com/products/asana/competitors/alternatives', 'Top 10 Asana Alternatives & Competitors in 2026 | G2'),
  result('https://www.capterra.com/p/120140/Asana/alternatives/', 'Asana Alternatives | Capterra'),
  result('https://monday.com/lp/asana-alternative', 'The best Asana alternative | monday.com', 'monday.com'),
  // A company blog's list article: the names in its title count, its own domain does not.
  result('https://zapier.com/blog/asana-alternatives/', 'The 6 best Asana alternatives: <strong>Trello.com</strong>, ClickUp and more'),
  result('https://www.reddit.com/r/projectmanagement/comments/1/asana_alternatives/', 'Asana alternatives? : r/projectmanagement'),
  result('https://www.linkedin.com/pulse/asana-vs-monday', 'Asana vs monday.com | LinkedIn'),
  result('https://asana.com/compare', 'Compare Asana to other tools', 'Asana'),
  result('https://clickup.com/compare/asana-alternative', 'ClickUp vs Asana', 'ClickUp'),
  result('http://203.0.113.9/asana', 'Asana clone'),
  result('https://medium.com/@someone/asana-vs-trello', 'Asana vs Trello: Node.js devs weigh in'),
  result('not a url', 'broken'),
];
const VS_QUERY = [
  result('https://www.trello.com/en/compare/asana', 'Trello vs Asana', 'Trello'),
  result('https://monday.com/blog/asana-vs-monday', 'Asana vs monday.com'),
  result('https://en.wikipedia.org/wiki/Asana_(software)', 'Asana (software) - Wikipedia'),
  result('https://www.youtube.com/watch?v=1', 'Asana vs ClickUp'),
];

describe('BraveSearchProvider', () => {
  it('runs the competitor and "vs" searches with the subscription token', async () => {
    server.reply = () => web();
    await provider().propose(target, { limit: 10, signal: noAbort() });
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      const url = new URL(request.path, 'http://x');
      expect(request.method).toBe('GET');
      expect(url.pathname).toBe('/res/v1/web/search');
      expect(url.searchParams.get('count')).toBe('20');
      expect(request.headers['x-subscription-token']).toBe('brave-key');
      expect(request.headers.accept).toBe('application/json');
    }
    expect(server.requests.map(queryOf).sort()).toEqual(['"Asana" competitors alternatives', 'Asana vs']);
  });

  it('tallies competitor domains from result URLs and titles, most mentioned first, without the noise', async () => {
    server.reply = (r) => (queryOf(r).endsWith(' vs') ? web(...VS_QUERY) : web(...COMPETITOR_QUERY));
    const proposals = await provider().propose(target, { limit: 10, signal: noAbort() });
    expect(proposals.map((p) => p.domain)).toEqual(['monday.com', 'trello.com', 'clickup.com']);
    // monday.com: its own two pages and the LinkedIn title naming it (LinkedIn itself is dropped).
    expect(proposals[0]).toEqual({ name: 'monday.com', domain: 'monday.com', reason: 'In 3 of 15 web results for competitor searches.' });
    expect(proposals[1]).toMatchObject({ name: 'Trello.com', domain: 'trello.com' });
    expect(proposals[2]).toMatchObject({ name: 'ClickUp', domain: 'clickup.com' });
    expect(proposals.map((p) => p.domain)).not.toContain('asana.com');
  });

  it('keeps to the limit', async () => {
    server.reply = (r) => (queryOf(r).endsWith(' vs') ? web(...VS_QUERY) : web(...COMPETITOR_QUERY));
    expect((await provider().propose(target, { limit: 1, signal: noAbort() })).map((p) => p.domain)).toEqual(['monday.com']);
  });

  it('returns [] for bodies of another shape', async () => {
    server.reply = () => ({ body: 'upstream error page' });
    expect(await provider().propose(target, { limit: 10, signal: noAbort() })).toEqual([]);
    server.reply = () => ({ body: { web: { results: 'none' } } });
    expect(await provider().propose(target, { limit: 10, signal: noAbort() })).toEqual([]);
    server.reply = () => web(null, 42, { title: 'no url' }, { url: 'https://192.168.1.1/' });
    expect(await provider().propose(target, { limit: 10, signal: noAbort() })).toEqual([]);
  });

  it('uses the searches that succeeded when one is rate limited, and rejects when all fail', async () => {
    server.reply = (r) => (queryOf(r).endsWith(' vs') ? { status: 429, body: { type: 'ErrorResponse', error: { code: 'RATE_LIMITED' } } } : web(...COMPETITOR_QUERY));
    expect((await provider().propose(target, { limit: 10, signal: noAbort() })).map((p) => p.domain)).toEqual(['monday.com', 'trello.com', 'clickup.com']);

    server.reply = () => ({ status: 429, body: { type: 'ErrorResponse', error: { code: 'RATE_LIMITED' } } });
    const failure = await provider().propose(target, { limit: 10, signal: noAbort() }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ provider: 'web-search:brave', failure: 'http', status: 429 });
  });

  itHonoursCancellation({ name: 'web-search:brave', provider, server: () => server, target, abortAfterMs: 50, timeoutMs: 150, giveUpWithinMs: 2_000 });
});
