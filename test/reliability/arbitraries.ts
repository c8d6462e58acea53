// test helper: fast-check arbitraries of hostile API input: domains in every odd spelling (IDN, punycode, long labels,
// IP literals, control characters), JSON bodies (valid, malformed, huge, deeply nested, of the wrong types), query
// strings, path parameters, headers, and CSV files (binary bytes, formula cells, odd quoting, huge fields).
import fc from 'fast-check';

/** Domains the knowledge base knows: a search of one succeeds (and is charged). */
export const KNOWN_DOMAINS = ['stripe.com', 'adyen.com', 'hubspot.com', 'salesforce.com', 'shopify.com'];

const CONTROL = fc.constantFrom('\u0000', '\u0001', '\u0007', '\b', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u200b', '\u202e', '\ufeff', '\ud800', '\uffff');

/** Strings of every kind: ASCII, any Unicode (lone surrogates included), control characters, long runs. */
export const anyText = fc.oneof(
  { weight: 4, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme' }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary' }) },
  { weight: 1, arbitrary: fc.array(CONTROL, { minLength: 1, maxLength: 8 }).map((a) => a.join('')) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', 'é', '\u0000', '💥', '%', '"'), fc.integer({ min: 256, max: 70_000 })).map(([c, n]) => c.repeat(n)) },
);

/** Domain-like input: valid and public, IDN and punycode, too-long labels and names, IP literals, URLs, hostile bits. */
export const domainish = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...KNOWN_DOMAINS, 'https://www.stripe.com/pricing', 'STRIPE.COM.', ' adyen.com ') },
  { weight: 3, arbitrary: fc.domain() },
  { weight: 2, arbitrary: fc.webUrl() },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'bücher.de', 'xn--bcher-kva.de', 'пример.рф', 'xn--e1afmkfd.xn--p1ai', '☃.com', 'xn--n3h.com', 'xn--.com', 'xn--zz.com', 'ex\u0430mple.com', 'exa\u200bmple.com',
      'localhost', 'localhost.', 'a.localhost', 'foo.internal', 'metadata.google.internal', 'router.lan', 'x.local', '.', '..', '.com', 'com', '-a.com', 'a-.com', 'a..com',
      '127.0.0.1', '2130706433', '0177.0.0.1', '0x7f.1', '127.1', '[::1]', '::ffff:127.0.0.1', '169.254.169.254', '[fd00:ec2::254]', '0.0.0.0', 'http://[::]/', 'http://user:pw@stripe.com@10.0.0.1/',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 60, max: 300 }).map((n) => `${'a'.repeat(n)}.com`) },
  { weight: 1, arbitrary: fc.integer({ min: 2, max: 60 }).map((n) => `${Array.from({ length: n }, () => 'abcdefgh').join('.')}.com`) },
  { weight: 1, arbitrary: fc.oneof(fc.ipV4(), fc.ipV4Extended(), fc.ipV6()) },
  { weight: 1, arbitrary: fc.tuple(fc.domain(), CONTROL).map(([d, c]) => `${d}${c}`) },
  { weight: 1, arbitrary: anyText },
);

/** Any JSON value of any type, domain-like strings included. */
const leaf = fc.oneof(
  domainish,
  anyText,
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(0, -1, 1, 100, 101, 201, 1e308, -0, 2 ** 53, 0.5),
  fc.boolean(),
  fc.constant(null),
);
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 20 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string(), leaf, { maxKeys: 5 }) },
  { weight: 1, arbitrary: fc.jsonValue() },
);

/** Every field name a request body or query of the API knows, and a few it does not. */
export const FIELDS = [
  'domain', 'limit', 'exclude', 'types', 'minMatchScore', 'countries', 'name', 'id', 'searchId', 'company', 'note', 'filename', 'webhookUrl',
  'cursor', 'format', 'status', 'source', '__proto__', 'constructor', 'accountId', 'credits',
];

/** Request bodies: none, objects of known fields with any values, any JSON, malformed JSON, huge and deeply nested. */
export const body = fc.oneof(
  { weight: 2, arbitrary: fc.constant<string | undefined>(undefined) },
  { weight: 8, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), anyValue, { maxKeys: 5 }).map((o) => JSON.stringify(o)) },
  { weight: 6, arbitrary: fc.record({ domain: domainish, limit: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constant(5)) }).map((o) => JSON.stringify(o)) },
  { weight: 2, arbitrary: fc.record({ domain: fc.constantFrom(...KNOWN_DOMAINS), limit: fc.integer({ min: 1, max: 10 }) }).map((o) => JSON.stringify(o)) },
  { weight: 2, arbitrary: fc.json() },
  { weight: 2, arbitrary: fc.tuple(fc.json(), fc.nat()).map(([j, n]) => j.slice(0, Math.max(0, j.length - 1 - (n % Math.max(1, j.length))))) },
  { weight: 2, arbitrary: fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('{', '{"domain":', '{"domain":"stripe.com",}', "{'domain':'stripe.com'}", 'null', '[]', '""', 'true', '\ufeff{}', '{"domain":"\\ud800"}')) },
  { weight: 1, arbitrary: fc.integer({ min: 100_000, max: 1_000_000 }).map((n) => JSON.stringify({ domain: `${'a'.repeat(n)}.com`, note: 'x'.repeat(n) })) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 50, max: 20_000 }), fc.boolean()).map(([depth, array]) =>
      array ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"domain":'.repeat(depth)}"stripe.com"${'}'.repeat(depth)}`,
    ),
  },
);

/**
 * Query strings (as the raw text after `?`): known and unknown keys, odd values, repeated keys, broken escapes. At most
 * 4,000 characters: API Gateway refuses a longer request line itself (10,240 bytes with the headers).
 */
export const query = fc.oneof(
  { weight: 2, arbitrary: fc.constant('') },
  {
    weight: 6,
    arbitrary: fc
      .array(fc.tuple(fc.constantFrom(...FIELDS, 'x', ''), fc.oneof(fc.constantFrom('0', '-1', '1', '5', '50', '200', '201', '1e3', '0x10', 'csv', 'json', 'xml', 'api', 'bulk', 'succeeded', 'Direct,Nope', 'US,DE', 'http://127.0.0.1/hook', 'https://169.254.169.254/'), domainish, anyText)), { maxLength: 4 })
      .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '?'))}`).join('&').slice(0, 4_000)),
  },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', 'limit=%ff', 'cursor=' + 'A'.repeat(5000), 'limit=1&limit=2', '&&&', '=', 'cursor=eyJwayI6IkFDQ09VTlQjYWNjdF9kZXYifQ') },
);

/** A path parameter as sent on the wire: ids of the account's own objects, look-alikes, odd and broken text. */
export const pathParam = (known: () => string[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(null).map(() => known()).chain((ids) => (ids.length ? fc.constantFrom(...ids) : fc.constant('none'))).map(encodeURIComponent) },
    { weight: 2, arbitrary: fc.constantFrom('srch_', 'job_', 'key_', 'share_').chain((p) => fc.string({ unit: fc.constantFrom(...'0123456789abcdefghjkmnpqrstvwxyz'), minLength: 26, maxLength: 26 }).map((s) => p + s)) },
    { weight: 2, arbitrary: fc.oneof(fc.string({ minLength: 1 }), fc.string({ unit: 'grapheme', minLength: 1 }), domainish).map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '?')).slice(0, 3_000) || 'x') },
    { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%c0%ae', '..', '%2e%2e', '%2F', 'a%00b', '%0d%0a', 'x'.repeat(3000)) },
  );

/** Printable header values (what an HTTP client can send at all). */
const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });
export const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'text/plain', 'text/csv', 'text/csv; charset=latin1', 'multipart/form-data; boundary=x',
  'multipart/form-data', 'application/x-www-form-urlencoded', 'application/octet-stream', 'application/xml', '', 'json', '*/*',
];
/** The X-API-Key to send: the account's own (mostly), none, empty, a random or malformed one, a huge one. */
export const apiKey = (own: string, revoked: string) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constant<string | undefined>(own) },
    { weight: 1, arbitrary: fc.constantFrom<string | undefined>(undefined, '', ' ', revoked, `${own} `, own.toUpperCase(), own.slice(0, -1), `Bearer ${own}`, 'x'.repeat(8_000)) },
    { weight: 1, arbitrary: fc.oneof(headerText, headerText.map((s) => `sk-live-${s}`)) },
  );
export const headers = (own: string, revoked: string, contentType = 'application/json') =>
  fc.record(
    {
      'content-type': fc.oneof({ weight: 8, arbitrary: fc.constant(contentType) }, { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, { weight: 1, arbitrary: headerText }),
      'x-api-key': apiKey(own, revoked),
      'idempotency-key': fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: fc.uuid() },
        { weight: 1, arbitrary: headerText },
        { weight: 1, arbitrary: fc.constantFrom('a'.repeat(300), '', 'fixed-key') },
      ),
      'x-forwarded-for': fc.oneof(fc.ipV4(), headerText),
      accept: fc.constantFrom('application/json', 'text/csv', '*/*', 'text/html'),
    },
    { requiredKeys: ['content-type', 'x-api-key'] },
  );

/** A CSV cell a spreadsheet would run as a formula, or a domain, or noise. */
const csvCellValue = fc.oneof(
  { weight: 4, arbitrary: domainish },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('=', '+', '-', '@', '\t', '\r', '=cmd|', '=HYPERLINK('), anyText).map(([f, t]) => f + t) },
  { weight: 1, arbitrary: fc.constantFrom('=1+1', '=cmd|\' /C calc\'!A0', '@SUM(1,1)', '+stripe.com', '-adyen.com', '=HYPERLINK("http://evil")', '"', '""', '"a""b"', ';', '\t') },
  { weight: 1, arbitrary: anyText },
);
/** CSV files: rows of cells joined by a separator, odd quoting, a BOM, binary bytes, huge fields. */
export const csvFile = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.array(fc.array(csvCellValue, { minLength: 1, maxLength: 4 }), { minLength: 0, maxLength: 30 }), fc.constantFrom(',', ';', '\t', '|'), fc.constantFrom('\n', '\r\n', '\r'), fc.boolean(), fc.boolean())
      .map(([rows, sep, eol, bom, quote]) => Buffer.from(`${bom ? '\ufeff' : ''}${rows.map((r) => r.map((c) => (quote ? `"${c.replace(/"/g, '""')}"` : c)).join(sep)).join(eol)}`)),
  },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 4_000 }).map((a) => Buffer.from(a)) },
  { weight: 1, arbitrary: fc.integer({ min: 10_000, max: 300_000 }).map((n) => Buffer.from(`domain\n"${'a'.repeat(n)}.com"\nstripe.com\n`)) },
  { weight: 1, arbitrary: fc.constantFrom('domain\n"unterminated\nstripe.com\n', 'a,b\n"x"y,z\n', '\u0000\u0000\u0000', 'domain\r\r\r\nstripe.com', 'domain\n' + 'x,'.repeat(5_000)).map((s) => Buffer.from(s)) },
);

/**
 * The fuzz tests' base seed. `npm test` runs the same inputs every time (a fixed seed: the suite is reproducible and
 * its result is the commit's, not the clock's); `npm run fuzz` explores with a fresh seed each night and prints it, and
 * FUZZ_SEED=<seed> replays any run.
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_261_129);
