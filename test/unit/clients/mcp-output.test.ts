// The MCP tools' output schemas are the API's contracts made loose: what the API answers validates, a field it adds
// later passes through (at any depth), a field it drops still fails, and a transformed field is checked as sent.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SearchResult, StoredSearch } from '@rivals/contracts';
import { loose } from '../../../packages/mcp-server/src/server.js';

const competitor = { rank: 1, company: 'Adyen', domain: 'adyen.com', matchScore: 91, type: 'Direct', confidence: 88, likelyCompetitor: true };
const result = { domain: 'stripe.com', totalCompetitors: 1, likelyCompetitors: 1, elapsedSeconds: 0.2, creditsRemaining: 9, competitors: [competitor] };

describe('loose (MCP output schemas from the contracts)', () => {
  it('accepts what the contract accepts, and fields the API adds later, nested ones included', () => {
    expect(SearchResult.safeParse(result).success).toBe(true);
    const later = { ...result, newTopLevel: 1, competitors: [{ ...competitor, newNested: 'x' }] };
    expect(SearchResult.safeParse(later).success).toBe(false);
    expect(loose(SearchResult).parse(later)).toEqual(later);
  });

  it('still refuses an answer missing a field, or of the wrong type', () => {
    const { creditsRemaining: _dropped, ...missing } = result;
    expect(loose(SearchResult).safeParse(missing).success).toBe(false);
    expect(loose(SearchResult).safeParse({ ...result, competitors: [{ ...competitor, matchScore: 'high' }] }).success).toBe(false);
  });

  it('checks a transformed field as the API sends it, and keeps optional, nullable and descriptions', () => {
    const schema = loose(z.strictObject({ countries: z.array(z.string().regex(/^[A-Z]{2}$/).transform((c) => c.toLowerCase())).optional(), note: z.string().nullable().describe('a note') }));
    expect(schema.parse({ countries: ['DE'], note: null })).toEqual({ countries: ['DE'], note: null });
    expect(schema.safeParse({ countries: ['Germany'], note: null }).success).toBe(false);
    expect(schema.parse({ note: 'x' })).toEqual({ note: 'x' });
    expect(z.toJSONSchema(schema)).toMatchObject({ properties: { note: { description: 'a note' } } });
    // Every contract the tools answer with converts to JSON Schema (what MCP clients are sent).
    expect(z.toJSONSchema(loose(StoredSearch))).toMatchObject({ type: 'object' });
  });
});
