// The knowledge-base build step refuses bad data and compiles references into indices.
import { describe, expect, it } from 'vitest';
import { compile } from '../../../packages/kb/src/build.js';

const sector = (companies: string, extraCategories = '') => ({
  name: 'demo.yaml',
  text: `sector: demo
name: Demo
reviewed: 2026-11-01
categories:
  - id: things
    name: Things
    description: Companies that make things.
    terms: [things, widgets, gadgets]
${extraCategories}
companies:
${companies}`,
});

const company = (domain: string, extra = '') => `  - name: ${domain}
    domain: ${domain}
    description: A company that makes things for people.
    categories: [things]
    keywords: [widgets]
    segment: smb
    model: saas
    founded: 2010
    hq: US
    size: 11-50
${extra}`;

const eight = Array.from({ length: 8 }, (_, i) => company(`c${i}.com`)).join('');

describe('knowledge-base build', () => {
  it('compiles a valid file, with relations both ways for a parent', () => {
    const { index, problems } = compile([sector(eight + company('child.com', '    parent: c0.com\n    competes: {c1.com: 0.8}\n'))]);
    expect(problems).toEqual([]);
    expect(index.entities).toHaveLength(9);
    const child = index.entities.findIndex((e) => e.host === 'child.com');
    expect(index.entities[child]!.parent).toBe(0);
    expect(index.relations).toEqual(expect.arrayContaining([[child, 0, 4, 1], [0, child, 5, 1], [child, 1, 0, 0.8]]));
  });

  it('reports a product line under its company\'s domain, and a subsidiary under its own', () => {
    const { index, problems } = compile([
      sector(eight + company('console.com', '    parent: c0.com\n    product: true\n') + company('acquired.com', '    parent: c0.com\n')),
    ]);
    expect(problems).toEqual([]);
    const byHost = (host: string) => index.entities.find((e) => e.host === host)!;
    expect(byHost('console.com').domain).toBe('c0.com');
    expect(byHost('acquired.com').domain).toBe('acquired.com');
  });

  it.each([
    ['a duplicate domain', eight + company('c1.com'), /c1.com belongs to two entries/],
    ['an unknown category', eight + company('x.com').replace('[things]', '[nothing]'), /unknown category nothing/],
    ['a dangling relation', eight + company('x.com', '    competes: {ghost.com: 0.5}\n'), /target ghost.com is not an entry/],
    ['a self relation', eight + company('x.com', '    competes: {x.com: 0.5}\n'), /relation to itself/],
    ['a strength above 1', eight + company('x.com', '    competes: {c1.com: 1.5}\n'), /competes/],
    ['a missing parent', eight + company('x.com', '    parent: nobody.com\n'), /parent nobody.com is not an entry/],
    ['a www domain', eight + company('www.x.com'), /drop the www/],
    ['a small category', company('a.com'), /holds 1 entries/],
  ])('refuses %s', (_, companies, problem) => {
    const { problems } = compile([sector(companies)]);
    expect(problems.join('\n')).toMatch(problem);
  });

  it('dates every entry: its own review date, else its file\'s', () => {
    const { index, problems } = compile([sector(eight + company('fresh.com', '    reviewed: 2026-11-20\n'))]);
    expect(problems).toEqual([]);
    expect(index.entities.find((e) => e.host === 'fresh.com')!.reviewed).toBe('2026-11-20');
    expect(index.entities.find((e) => e.host === 'c0.com')!.reviewed).toBe('2026-11-01');
  });

  it('refuses a sector file without a review date', () => {
    const file = sector(eight);
    const { problems } = compile([{ ...file, text: file.text.replace('reviewed: 2026-11-01\n', '') }]);
    expect(problems.join('\n')).toMatch(/reviewed/);
  });

  it('marks a company that no longer exists', () => {
    const { index } = compile([sector(eight + company('gone.com', '    defunct: true\n'))]);
    expect(index.entities.find((e) => e.host === 'gone.com')!.defunct).toBe(true);
    expect(index.entities.find((e) => e.host === 'c0.com')!.defunct).toBe(false);
  });

  it('fails when a listed company has no entry, and resolves aliases', () => {
    const list = { name: 'demo-index.txt', text: '# list: Demo Index\n# as-of: 2026-11\nc0.com   # C Zero\n\nold-name.com\nghost.com # nobody\n' };
    const { lists, problems } = compile([sector(eight + company('renamed.com', '    domains: [old-name.com]\n'))], [list]);
    expect(problems).toEqual(['lists/demo-index.txt: ghost.com has no entry']);
    expect(lists).toEqual([{ id: 'demo-index', name: 'Demo Index', asOf: '2026-11', entities: [0, 8] }]);
  });

  it('wants a list to say what it is and when', () => {
    const { problems } = compile([sector(eight)], [{ name: 'bare.txt', text: 'c0.com\nnot a domain\n' }]);
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/no "# list/), expect.stringMatching(/no "# as-of/), expect.stringMatching(/is not a domain/)]));
  });

  it('derives ownership: index lists (home exchange first, tickers), `listed:`, a description that says so, a parent, a product line\'s company', () => {
    const files = [
      sector(
        eight +
          company('listed.com', '    listed: {exchange: Demo Board, ticker: LST}\n') +
          company('said.com').replace('A company that makes things for people.', 'London-listed maker of things for people.') +
          company('owned.com', '    parent: c0.com\n') +
          company('line.com', '    parent: c1.com\n    product: true\n'),
      ),
    ];
    const lists = [
      { name: 'a-world.txt', text: '# list: World\n# as-of: 2026-11\n# exchange: various (EU)\nc1.com\n' },
      { name: 'b-home.txt', text: '# list: Home\n# as-of: 2026-11\n# exchange: Home Exchange (US)\nc1.com  CONE  # C One\nc2.com\n' },
      { name: 'c-abroad.txt', text: '# list: Abroad\n# as-of: 2026-11\n# exchange: Far Exchange (JP)\nc1.com FAR1\n' },
      { name: 'd-bad.txt', text: '# list: Bad\n# as-of: 2026-11\n# exchange: Nowhere\nc3.com lower-case-ticker\n' },
    ];
    const { index, problems } = compile(files, lists);
    expect(problems).toEqual([expect.stringMatching(/d-bad.txt:3: write "# exchange/), expect.stringMatching(/d-bad.txt:4: write "domain \[TICKER\]/)]);
    const of = (host: string) => {
      const e = index.entities.find((x) => x.host === host)!;
      return [e.ownership, e.exchange, e.ticker];
    };
    expect(of('c1.com')).toEqual(['public', 'Home Exchange', 'CONE']);
    expect(of('c2.com')).toEqual(['public', 'Home Exchange', null]);
    expect(of('listed.com')).toEqual(['public', 'Demo Board', 'LST']);
    expect(of('said.com')).toEqual(['public', null, null]);
    expect(of('owned.com')).toEqual(['subsidiary', null, null]);
    expect(of('line.com')).toEqual(['public', 'Home Exchange', 'CONE']);
    expect(of('c4.com')).toEqual(['private', null, null]);
  });
});
