// The local front reads the request target as sent: `//host/...` stays a path, the query is split off as is.
import { describe, expect, it } from 'vitest';
import { parseTarget } from '../../../packages/local/src/front.js';

describe('parseTarget', () => {
  it.each([
    ['/api/health', '/api/health', ''],
    ['/api/searches/srch_1?limit=5&cursor=a%2Fb', '/api/searches/srch_1', 'limit=5&cursor=a%2Fb'],
    ['//elsewhere.example/api/v1/balance', '//elsewhere.example/api/v1/balance', ''],
    ['//elsewhere.example/api/v1/balance?x=1', '//elsewhere.example/api/v1/balance', 'x=1'],
    ['http://127.0.0.1:3000/api/health?x=1', '/api/health', 'x=1'],
    ['*', '*', ''],
  ])('reads %s as path %s and query %s', (target, pathname, query) => {
    const parsed = parseTarget(target);
    expect(parsed.pathname).toBe(pathname);
    expect(parsed.query.toString()).toBe(query);
  });
});
