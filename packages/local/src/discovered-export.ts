// operator command: the discovered layer as a knowledge-base sector file, for a person to review and merge into the
// curated files. Facts the layer does not hold (founding year, size, business model, segment, rivals) are left for the
// reviewer, marked `review:`; the rest is what the homepage said.
import { stringify } from 'yaml';
import type { DiscoveredCompany } from '@rivals/core';

/** A sector file (`sector: discovered`) holding every discovered company, by domain. */
export function discoveredAsSectorYaml(companies: DiscoveredCompany[], today: string): string {
  const entries = [...companies]
    .sort((a, b) => (a.domain < b.domain ? -1 : 1))
    .map((c) => ({
      name: c.name,
      domain: c.domain,
      description: c.description.length >= 10 ? c.description : `${c.name}: ${c.description || 'review: describe the company'}`,
      categories: c.categories.map((x) => x.id),
      keywords: c.terms.slice(0, 6),
      segment: 'smb',
      model: 'services',
      founded: 2026,
      hq: c.country ?? 'ZZ',
      size: '1-10',
      reviewed: c.fetchedAt.slice(0, 10),
    }));
  const header = [
    '# Discovered companies, exported by `npm run admin -- discovered export`: what their homepages said, to review.',
    '# review: segment, model, founded and size are placeholders (smb, services, 2026, 1-10), hq ZZ means the page did',
    '# not say; keywords are analysed terms. Fix them, add rivalries, move each entry to its sector file, then kb:build.',
    '',
  ].join('\n');
  // A sector file declares at least one category: a placeholder, to delete once the entries are moved.
  const placeholder = { id: 'discovered-review', name: 'Discovered, to review', description: 'review: a placeholder; delete it once the entries below are moved.', terms: ['review', 'discovered', 'placeholder'] };
  return header + stringify({ sector: 'discovered', name: 'Discovered companies', reviewed: today, categories: [placeholder], companies: entries }, { lineWidth: 0 });
}
