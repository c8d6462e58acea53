// test helper: generated hostile homepages (deep nesting, huge attribute lists, a giant JSON-LD array, one enormous text
// node...), each with a known profile hidden around the bulk, for the extraction tests and `npm run bench:extract`.

export interface HostilePage {
  name: string;
  html: Buffer;
  /** What extraction must find (a subset of PageFacts). */
  expected: { title?: string; description?: string; headings?: string[]; organizationName?: string | null };
}

const HEAD = '<!doctype html><html><head><title>Acme</title><meta name="description" content="CRM for small teams"></head><body>';
const ORG = '<script type="application/ld+json">{"@type":"Organization","name":"Acme Inc."}</script>';
const page = (body: string) => Buffer.from(`${HEAD}${body}</body></html>`);

/** The pages of the hardening issue, with sizes as reported (or larger). */
export function hostilePages(): HostilePage[] {
  return [
    {
      name: '550 KB of nested <div>s, never closed',
      html: page(`${ORG}${'<div>'.repeat(110_000)}<h1>Deep inside</h1>`),
      expected: { title: 'Acme', headings: ['Deep inside'], organizationName: 'Acme Inc.' },
    },
    {
      name: '300k nested <span>s',
      html: page(`<h1>Before</h1>${'<span>'.repeat(300_000)}text${'</span>'.repeat(300_000)}<h2>After</h2>`),
      expected: { title: 'Acme', headings: ['Before'] }, // 300k spans is past the tag cap: what follows is not read
    },
    {
      name: '100k attributes on one <meta>',
      html: page(`<h1>Hi</h1><meta name="og:site_name" ${Array.from({ length: 100_000 }, (_, i) => `data-a${i}="v${i}"`).join(' ')} content="Acme Attr">`),
      expected: { title: 'Acme', headings: ['Hi'], organizationName: 'Acme Attr' },
    },
    {
      name: '900k-element JSON-LD array',
      html: page(`<script type="application/ld+json">[${Array(900_000).fill('{}').join(',')}]</script>${ORG}<h1>Still read</h1>`),
      expected: { title: 'Acme', headings: ['Still read'], organizationName: 'Acme Inc.' },
    },
    {
      name: '2 MB single text node',
      html: page(`<h1>Top</h1><p>${'lorem ipsum '.repeat(175_000)}</p><h2>Bottom</h2>`),
      expected: { title: 'Acme', headings: ['Top', 'Bottom'] },
    },
    {
      name: '2 MB text node inside a heading',
      html: page(`<h1>${'word '.repeat(400_000)}</h1>`),
      expected: { title: 'Acme', headings: [`${'word '.repeat(40)}`.trim()] },
    },
    {
      name: '300k stray closing tags under 1 000 open elements',
      html: page(`${'<div>'.repeat(1_000)}${'</p>'.repeat(300_000)}<h1>End</h1>`),
      expected: { title: 'Acme', headings: ['End'] },
    },
    {
      name: '2 MB unterminated comment',
      html: page(`<h1>Visible</h1><!--${'-'.repeat(2_000_000)}`),
      expected: { title: 'Acme', headings: ['Visible'] },
    },
  ];
}
