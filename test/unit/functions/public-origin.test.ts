// Share links are absolute: PUBLIC_BASE_URL when set, else the address the request came to (the viewer's host on
// CloudFront, the Host the local runtime was called on, API Gateway's own address with its stage).
import { afterEach, describe, expect, it } from 'vitest';
import { publicOrigin } from '../../../functions/shared/public-origin.js';

const event = (headers: Record<string, string>, stage = 'prod') => ({ headers, requestContext: { stage } });

afterEach(() => {
  delete process.env.PUBLIC_BASE_URL;
});

describe('publicOrigin', () => {
  it('prefers PUBLIC_BASE_URL, without a trailing slash', () => {
    process.env.PUBLIC_BASE_URL = 'https://app.example.com/';
    expect(publicOrigin(event({ Host: 'abc.execute-api.us-east-1.amazonaws.com', 'X-Forwarded-Proto': 'https' }))).toBe('https://app.example.com');
  });

  it('uses the host the viewer asked CloudFront for', () => {
    expect(publicOrigin(event({ host: 'abc123.execute-api.us-east-1.amazonaws.com', 'x-rivals-public-host': 'd111.cloudfront.net', 'x-forwarded-proto': 'https' }))).toBe('https://d111.cloudfront.net');
  });

  it('adds the stage on API Gateway\'s own address', () => {
    expect(publicOrigin(event({ Host: 'abc123.execute-api.us-east-1.amazonaws.com', 'X-Forwarded-Proto': 'https' }))).toBe('https://abc123.execute-api.us-east-1.amazonaws.com/prod');
  });

  it('uses the local runtime\'s Host over plain http', () => {
    expect(publicOrigin(event({ host: '127.0.0.1:3000' }, 'local'))).toBe('http://127.0.0.1:3000');
  });

  it('ignores a host header that is not a bare host (no path, no scheme, no spaces)', () => {
    expect(publicOrigin(event({ host: 'evil.com/phish?x=' }))).toBeUndefined();
    expect(publicOrigin(event({ 'x-rivals-public-host': 'a b', host: 'localhost:3000' }))).toBe('http://localhost:3000');
  });
});
