// robots.txt path patterns are matched in linear time, with the same answers as robots-parser's own matcher.
import robotsParser from 'robots-parser';
import { describe, expect, it } from 'vitest';
import { patternMatches } from '../../../packages/crawler/src/robots.js';

type Parsed = { isAllowed(url: string, ua?: string): boolean | undefined };
const parse = ((robotsParser as unknown as { default?: unknown }).default ?? robotsParser) as (url: string, text: string) => Parsed;

/** A small deterministic generator, so that a failure names the same case every run. */
function* cases(count: number): Generator<[string, string]> {
  let seed = 42;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  const word = (alphabet: string, max: number) => Array.from({ length: next(max) }, () => alphabet[next(alphabet.length)]).join('');
  for (let i = 0; i < count; i++) yield [`/${word('ab*$', 6)}`, `/${word('ab', 8)}`];
}

describe('robots.txt pattern matching', () => {
  it('agrees with robots-parser on 3 000 generated patterns and paths', () => {
    // Prepare
    const disagreements: string[] = [];

    // Act
    for (const [pattern, path] of cases(3_000)) {
      const theirs = parse('http://x.test/robots.txt', `User-agent: *\nDisallow: ${pattern}\n`).isAllowed(`http://x.test${path}`, 'RivalsBot') === false;
      if (patternMatches(pattern, path) !== theirs) disagreements.push(`${pattern} ~ ${path}`);
    }

    // Assess
    expect(disagreements).toEqual([]);
  });

  it('matches a hostile 500 KB rule set against a 2 000-character path in one linear pass', () => {
    // Prepare
    const pattern = `/${'*a'.repeat(1_000)}b`;
    const path = `/${'a'.repeat(2_000)}`;

    // Act
    const results = Array.from({ length: 250 }, () => patternMatches(pattern, path));

    // Assess
    expect(results.every((r) => r === false)).toBe(true);
    expect(patternMatches(pattern, `${path}b`)).toBe(true);
  });
});
