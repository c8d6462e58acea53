// dashboard: every past search, newest first, filterable by source and status; each opens its detail page.
import { useState } from 'preact/hooks';
import type { HistoryParams } from '@rivals/sdk/browser';
import { ListTable } from '../components/ListTable.js';
import { formatDate } from '../csv.js';
import { usePaged } from '../hooks.js';
import { useClient } from '../session.js';

export function HistoryPage() {
  const client = useClient();
  const [source, setSource] = useState<HistoryParams['source'] | ''>('');
  const [status, setStatus] = useState<HistoryParams['status'] | ''>('');
  const list = usePaged((cursor) => client.history.list({ cursor, limit: 50, source: source || undefined, status: status || undefined }), [client, source, status]);
  return (
    <section>
      <h1>History</h1>
      <div class="toolbar">
        <label>
          Source{' '}
          <select value={source} onChange={(e) => setSource(e.currentTarget.value as typeof source)}>
            <option value="">All</option>
            <option value="api">Searches</option>
            <option value="bulk">Bulk jobs</option>
          </select>
        </label>
        <label>
          Status{' '}
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value as typeof status)}>
            <option value="">All</option>
            <option value="succeeded">Succeeded</option>
            <option value="running">Running</option>
            <option value="failed">Failed</option>
          </select>
        </label>
      </div>
      <ListTable
        headers={['Domain', 'When', 'Status', 'Competitors', 'Likely', 'Source']}
        empty={
          <>
            No searches yet. <a href="/">Run your first search</a>.
          </>
        }
        count={list.items.length}
        list={list}
      >
        {list.items.map((h) => (
          <tr key={h.id} data-testid="history-row">
            <td data-label="Domain">
              <a href={`/searches/${h.id}`}>{h.seeds && h.seeds.length > 1 ? `Like ${h.seeds.join(', ')}` : h.domain}</a>
            </td>
            <td data-label="When">{formatDate(h.createdAt)}</td>
            <td data-label="Status">
              <span class={`status status-${h.status}`}>{h.status}</span>
            </td>
            <td data-label="Competitors" class="num">
              {h.totalCompetitors}
            </td>
            <td data-label="Likely" class="num">
              {h.likelyCompetitors}
            </td>
            <td data-label="Source">{h.source === 'bulk' ? 'bulk job' : 'search'}</td>
          </tr>
        ))}
      </ListTable>
    </section>
  );
}
