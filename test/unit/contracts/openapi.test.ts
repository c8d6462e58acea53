// The OpenAPI document describes exactly the routes the service serves, with the schemas it validates with.
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '@rivals/contracts';
import { ROUTES } from '../../../infra/routes.js';

const document = openApiDocument('test');
const documented = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));

describe('OpenAPI document', () => {
  it('documents every route the service serves, and no other', () => {
    expect(documented.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('marks exactly the keyless routes as needing no key', () => {
    const keyless = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).filter(([, op]) => 'security' in op && Array.isArray(op.security) && op.security.length === 0).map(([m]) => `${m.toUpperCase()} ${path}`),
    );
    expect(keyless.sort()).toEqual(ROUTES.filter((r) => !r.auth).map((r) => `${r.method} ${r.path}`).sort());
  });

  it('documents 429 rate_limited with Retry-After on every route, and the RateLimit-* headers', () => {
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(methods as Record<string, { responses: Record<string, { headers?: object }> }>)) {
        expect([path, method, Object.keys(op.responses['429']?.headers ?? {})]).toEqual([path, method, expect.arrayContaining(['Retry-After', 'RateLimit-Remaining'])]);
      }
    }
  });

  it('describes the search request from the same schema the handler validates with', () => {
    expect(document.components.schemas.SearchRequest).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['domain'],
      properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 100 } },
    });
    expect(document.components.schemas.SearchResult).toMatchObject({
      required: expect.arrayContaining(['domain', 'totalCompetitors', 'likelyCompetitors', 'elapsedSeconds', 'creditsRemaining', 'competitors']),
    });
  });

  it('describes the account-data bodies from their strict schemas, and every error of their routes', () => {
    expect(document.components.schemas.SaveCompanyRequest).toMatchObject({
      additionalProperties: false,
      required: ['domain'],
      properties: { note: { maxLength: 500 } },
    });
    const save = document.paths['/api/saved-companies'].post.responses;
    expect(Object.keys(save).sort()).toEqual(['200', '201', '400', '401', '404', '409', '415', '429', '500']);
    const share = document.paths['/api/searches/{id}/share'];
    expect(Object.keys(share.post.responses)).toEqual(expect.arrayContaining(['200', '201', '404', '409']));
    expect(Object.keys(share.delete.responses)).toEqual(expect.arrayContaining(['204', '404']));
    expect(document.paths['/api/my-companies'].get.responses['200'].content).toHaveProperty('text/csv');
  });
});
