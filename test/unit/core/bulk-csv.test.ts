// The bulk CSV reader, formula escaping of the download, and webhook signatures.
import { describe, expect, it } from 'vitest';
import { csvCell, parseDomainsCsv, signatureHeader, sniffSeparator, verifySignature } from '@rivals/core';
import { HOSTILE_CSVS } from '../../reliability/fixtures/hostile-csv.js';

const parse = (text: string, maxDomains = 100) => parseDomainsCsv([Buffer.from(text)], { maxDomains });
/** The same file split into one-byte chunks, as a network stream may deliver it. */
const parseChunked = (text: string) => parseDomainsCsv((function* () { for (const b of Buffer.from(text)) yield Buffer.from([b]); })(), { maxDomains: 100 });

describe('parseDomainsCsv', () => {
  it.each([
    ['a bare list', 'stripe.com\nadyen.com\n', ['stripe.com', 'adyen.com']],
    ['a BOM and CRLF', '\uFEFFstripe.com\r\nadyen.com\r\n', ['stripe.com', 'adyen.com']],
    ['a header naming the column (any case)', 'Company,WEBSITE\nStripe,stripe.com\nAdyen,https://www.adyen.com/en\n', ['stripe.com', 'adyen.com']],
    ['company_domain', 'name,company_domain\nx,paypal.com\n', ['paypal.com']],
    ['a header naming none: the first column', 'first,second\nstripe.com,x\n', ['stripe.com']],
    ['semicolons', 'name;domain\r\nStripe;stripe.com\r\n', ['stripe.com']],
    ['tabs', 'name\turl\nStripe\tstripe.com\n', ['stripe.com']],
    ['quoted fields with separators and quotes', 'name,domain\n"Stripe, Inc. ""the"" one",stripe.com\n', ['stripe.com']],
    ['blank lines', '\n\nstripe.com\n\n\nadyen.com\n\n', ['stripe.com', 'adyen.com']],
    ['duplicates in other spellings, kept once', 'stripe.com\nhttps://www.stripe.com/x\nSTRIPE.COM\n', ['stripe.com']],
    ['a first row that is data', 'stripe.com,x\nadyen.com,y\n', ['stripe.com', 'adyen.com']],
    ['private suffixes kept whole', 'shop.myshopify.com\n', ['shop.myshopify.com']],
  ])('reads %s', async (_, text, domains) => {
    expect((await parse(text)).domains).toEqual(domains);
    expect((await parseChunked(text)).domains).toEqual(domains);
  });

  it('lists invalid rows with their line and reason, and never counts them', async () => {
    const result = await parse('domain\nstripe.com\nlocalhost\n10.0.0.1\n\n"not a domain"\nfoo.internal\n');
    expect(result.domains).toEqual(['stripe.com']);
    expect(result.rejectedRows).toEqual([
      { row: 3, value: 'localhost', reason: 'not a public company domain' },
      { row: 4, value: '10.0.0.1', reason: 'not a public company domain' },
      { row: 6, value: 'not a domain', reason: 'not a public company domain' },
      { row: 7, value: 'foo.internal', reason: 'not a public company domain' },
    ]);
  });

  it.each([
    ['an empty file', '', 400, 'invalid_request'],
    ['only a header', 'domain\n', 400, 'invalid_request'],
    ['no valid domain', 'domain\nfoo\nbar\n', 400, 'invalid_request'],
    ['an unclosed quote', 'domain\n"stripe.com\n', 400, 'invalid_request'],
    ['binary data', 'PK\u0003\u0004\u0000\u0000', 415, 'unsupported_media_type'],
  ])('refuses %s', async (_, text, status, code) => {
    await expect(parse(text)).rejects.toMatchObject({ code, status });
  });

  it('refuses more unique domains than allowed with 413, counting duplicates once', async () => {
    await expect(parse('a.com\nb.com\nc.com\n', 2)).rejects.toMatchObject({ code: 'payload_too_large', status: 413 });
    expect((await parse('a.com\na.com\nb.com\n', 2)).domains).toEqual(['a.com', 'b.com']);
  });

  it.each([
    ['a,b;c;d', ';'],
    ['a\tb\tc', '\t'],
    ['"x;y;z",b', ','],
    ['single', ','],
  ])('sniffs the separator of %j', (line, separator) => {
    expect(sniffSeparator(line)).toBe(separator);
  });
});

describe('parseDomainsCsv caps what a file may cost', () => {
  it.each(HOSTILE_CSVS)('refuses %s with the documented error, after reading little of it', async (_, body, status, problem) => {
    const before = process.cpuUsage();
    const failure = await parse(body).then(() => null, (error: unknown) => error as { status: number; message: string });
    const cpu = process.cpuUsage(before);
    expect(failure).toMatchObject({ status, message: expect.stringMatching(problem) });
    console.log(`[reliability] hostile CSV "${_}": ${status}, ${Math.round((cpu.user + cpu.system) / 1000)} ms CPU`);
  });

  it('reads a record of 1,000 cells and one of 64 KB, the caps themselves', async () => {
    const wide = `domain,${Array.from({ length: 999 }, (_, i) => `c${i}`).join(',')}\nstripe.com${',x'.repeat(999)}\n`;
    expect((await parse(wide)).domains).toEqual(['stripe.com']);
    const long = `domain,notes\nstripe.com,"${'n'.repeat(64 * 1024 - 20)}"\n`;
    expect((await parse(long)).domains).toEqual(['stripe.com']);
    // A quoted separator or line break is one cell, not two.
    const quoted = `domain,notes\nstripe.com,"${',\n'.repeat(2000)}"\n`;
    expect((await parse(quoted)).domains).toEqual(['stripe.com']);
  });

  it('tells a header from data by its first cells only', async () => {
    // Data far to the right of a header's first cells does not make the header a data row.
    const text = `name,domain,${Array.from({ length: 30 }, (_, i) => `extra${i}`).join(',')},stripe.com\nAdyen,adyen.com\n`;
    expect((await parse(text)).domains).toEqual(['adyen.com']);
  });
});

describe('csvCell', () => {
  it.each([
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ['+1+2', `"'+1+2"`],
    ['-2+3', `"'-2+3"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\tcmd', `"'\tcmd"`],
    ['\rcmd', `"'\rcmd"`],
    ['Acme, Inc.', '"Acme, Inc."'],
    ['plain', 'plain'],
    [42, '42'],
    [true, 'true'],
    [null, ''],
  ])('writes %j as %s', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});

describe('webhook signatures', () => {
  const secret = 'whsec_test';
  const body = '{"id":"evt_1","type":"bulk_job.completed"}';
  it('verifies its own signature and nothing else', () => {
    const header = signatureHeader(secret, body, 1_700_000_000);
    expect(header).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
    expect(verifySignature(header, body, secret, { now: 1_700_000_100 })).toBe(true);
    expect(verifySignature(header, `${body} `, secret, { now: 1_700_000_100 })).toBe(false);
    expect(verifySignature(header, body, 'whsec_other', { now: 1_700_000_100 })).toBe(false);
    expect(verifySignature(header, body, secret, { now: 1_700_000_000 + 301 })).toBe(false);
    expect(verifySignature('t=abc,v1=00', body, secret)).toBe(false);
  });
});
