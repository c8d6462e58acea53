// kb: reading a team's import file (`npm run admin -- kb import FILE`): YAML in the sector format (its `companies`), or
// CSV `domain,name,description,categories,competitors` (lists separated by `;` or `|`). Validated as kb:build validates
// an entry, against the deployed knowledge base: an unknown category, or a rival that is neither known nor imported,
// is an error naming the row. Operator-side only (never bundled into a function).
import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseYaml } from 'yaml';
import { CompanySpec, type KbIndex } from './schema.js';

export interface ImportResult {
  companies: CompanySpec[];
  problems: string[];
}

const CSV_COLUMNS = ['domain', 'name', 'description', 'categories', 'competitors'];
const list = (cell: string | undefined) => (cell ?? '').split(/[;|]/).map((x) => x.trim()).filter(Boolean);

/** Parses and validates an import file; `companies` is empty whenever `problems` is not. */
export function parseImport(fileName: string, text: string, index: KbIndex): ImportResult {
  const problems: string[] = [];
  const rows: { at: string; raw: unknown }[] = [];
  if (/\.csv$/i.test(fileName)) {
    let records: string[][];
    try {
      records = parseCsv(text, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true });
    } catch (error) {
      return { companies: [], problems: [`${fileName}: not valid CSV: ${(error as Error).message}`] };
    }
    const header = (records[0] ?? []).map((h) => h.toLowerCase());
    if (header.join(',') !== CSV_COLUMNS.join(',')) return { companies: [], problems: [`${fileName}: the header must be ${CSV_COLUMNS.join(',')}`] };
    records.slice(1).forEach((cells, n) => {
      const [domain = '', name = '', description = '', categories, competitors] = cells;
      const categoryIds = list(categories);
      rows.push({
        at: `row ${n + 2} (${domain || 'no domain'})`,
        raw: {
          name, domain: domain.toLowerCase(), description, categories: categoryIds,
          // CSV carries no keywords: the categories' names stand in, as the words the company is found by.
          keywords: categoryIds.map((c) => index.categories.find((x) => x.id === c)?.name ?? c),
          segment: 'smb', model: 'services', founded: new Date().getFullYear(), hq: 'ZZ', size: '1-10',
          competes: Object.fromEntries(list(competitors).map((d) => [d.toLowerCase(), 0.8])),
        },
      });
    });
  } else {
    let doc: unknown;
    try {
      doc = parseYaml(text, { uniqueKeys: true });
    } catch (error) {
      return { companies: [], problems: [`${fileName}: not valid YAML: ${(error as Error).message.split('\n')[0]}`] };
    }
    const file = doc as { categories?: unknown[]; companies?: unknown[] } | null;
    if (!file || !Array.isArray(file.companies)) return { companies: [], problems: [`${fileName}: a sector file with a companies list is expected`] };
    if (Array.isArray(file.categories) && file.categories.length) problems.push(`${fileName}: an import adds companies only; new categories go in the sector files (kb:build)`);
    file.companies.forEach((raw, n) => rows.push({ at: `companies[${n}] (${(raw as { domain?: string })?.domain ?? 'no domain'})`, raw }));
  }

  const companies: CompanySpec[] = [];
  const categoryIds = new Set(index.categories.map((c) => c.id));
  const knownHosts = new Set(index.entities.flatMap((e) => [e.host, e.domain, ...e.otherDomains]));
  for (const { at, raw } of rows) {
    const parsed = CompanySpec.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues.slice(0, 10)) problems.push(`${fileName}: ${at}: ${issue.path.join('.') || 'entry'}: ${issue.message}`);
      continue;
    }
    for (const c of parsed.data.categories) if (!categoryIds.has(c)) problems.push(`${fileName}: ${at}: unknown category ${c}`);
    companies.push(parsed.data);
  }
  const imported = new Set<string>();
  for (const c of companies) {
    if (imported.has(c.domain)) problems.push(`${fileName}: ${c.domain} is imported twice`);
    imported.add(c.domain);
  }
  for (const c of companies) {
    for (const kind of ['competes', 'alternative', 'substitute', 'complement'] as const) {
      for (const target of Object.keys(c[kind] ?? {})) {
        if (!knownHosts.has(target) && !imported.has(target)) problems.push(`${fileName}: ${c.domain}: ${kind} ${target} is neither in the knowledge base nor imported`);
      }
    }
  }
  return problems.length ? { companies: [], problems } : { companies, problems };
}
