// dashboard: every company found across the account's searches (most often found first), filterable, as CSV.
import { useMemo, useState } from 'preact/hooks';
import type { CompetitorType } from '@rivals/sdk/browser';
import { ListTable } from '../components/ListTable.js';
import { DomainLink, ErrorNotice, Loading, TypeBadge, TYPES } from '../components/ui.js';
import { downloadText, formatDate } from '../csv.js';
import { useAction, useLoad } from '../hooks.js';
import { useClient } from '../session.js';

export function CompaniesPage() {
  const client = useClient();
  const exporting = useAction();
  const companies = useLoad(() => client.myCompanies.list(), [client]);
  const [text, setText] = useState('');
  const [type, setType] = useState<CompetitorType | ''>('');
  const shown = useMemo(() => {
    const q = text.trim().toLowerCase();
    return (companies.data?.items ?? []).filter(
      (c) => (!type || c.types.includes(type)) && (!q || c.company.toLowerCase().includes(q) || (c.product ?? '').toLowerCase().includes(q) || c.domain.includes(q) || c.foundFor.some((f) => f.includes(q))),
    );
  }, [companies.data, text, type]);
  const exportCsv = () => exporting.run(async () => downloadText('rivals-my-companies.csv', await client.myCompanies.csv()));

  if (companies.loading && !companies.data) return <Loading />;
  if (companies.error) return <ErrorNotice error={companies.error} onRetry={companies.reload} />;
  const data = companies.data!;
  return (
    <section>
      <h1>My companies</h1>
      <p class="muted">Every company your searches have found. {data.total > data.items.length && `Showing the ${data.items.length} found most often of ${data.total}.`}</p>
      <div class="toolbar">
        <label>
          Filter{' '}
          <input type="search" placeholder="Company, domain or searched domain" value={text} onInput={(e) => setText(e.currentTarget.value)} data-testid="companies-filter" />
        </label>
        <label>
          Type{' '}
          <select value={type} onChange={(e) => setType(e.currentTarget.value as CompetitorType | '')}>
            <option value="">All</option>
            {TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <button type="button" class="secondary" onClick={exportCsv} disabled={data.items.length === 0}>
          Export CSV
        </button>
      </div>
      <ErrorNotice error={exporting.error} />
      <ListTable
        headers={['Company', 'Domain', 'Times found', 'Best match', 'Types', 'Found for', 'Last seen']}
        empty={
          data.items.length === 0 ? (
            <>
              No companies yet: they appear here as your searches find them. <a href="/">Search now</a>.
            </>
          ) : (
            'No company matches the filter.'
          )
        }
        count={shown.length}
      >
        {shown.map((c) => (
          <tr key={`${c.domain}|${c.product ?? ''}`} data-testid="company-row">
            <td data-label="Company">
              {c.company}
              {c.product && <span class="muted"> · {c.product}</span>}
            </td>
            <td data-label="Domain">
              <DomainLink domain={c.domain} />
            </td>
            <td data-label="Times found" class="num">
              {c.timesFound}
            </td>
            <td data-label="Best match" class="num">
              {c.bestMatchScore}
            </td>
            <td data-label="Types">
              {c.types.map((t) => (
                <TypeBadge key={t} type={t} />
              ))}
            </td>
            <td data-label="Found for">{c.foundFor.join(', ')}</td>
            <td data-label="Last seen">{formatDate(c.lastSeenAt)}</td>
          </tr>
        ))}
      </ListTable>
    </section>
  );
}
