import { describe, expect, it } from 'vitest';
import { normalizeDomain } from '@rivals/core';

describe('normalizeDomain', () => {
  it.each([
    ['stripe.com', 'stripe.com'],
    ['https://www.stripe.com/x', 'stripe.com'],
    ['WWW.Stripe.COM', 'stripe.com'],
    ['http://dashboard.stripe.com:8443/path?q=1#f', 'stripe.com'],
    ['bbc.co.uk', 'bbc.co.uk'],
    ['news.bbc.co.uk', 'bbc.co.uk'],
    ['shop.myshopify.com', 'shop.myshopify.com'],
    ['stripe.com.', 'stripe.com'],
    [' notion.so ', 'notion.so'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeDomain(input)).toBe(expected);
  });

  it.each(['not a domain', 'localhost', 'localhost.', 'api.localhost', '127.0.0.1', '2130706433', '0x7f.1', '127.1', 'http://10.0.0.1/x', '[::1]', '[::ffff:127.0.0.1]', 'printer.local', 'db.internal', 'svc.cluster.local', 'router.home.arpa', 'abc.onion', 'metadata.google.internal', 'metadata.goog', 'shop.test', 'com', 'stripe', '', '-bad-.com', 'a..com'])(
    'refuses %j with invalid_domain',
    (input) => {
      expect(() => normalizeDomain(input)).toThrow(expect.objectContaining({ code: 'invalid_domain', status: 400 }));
    },
  );
});
