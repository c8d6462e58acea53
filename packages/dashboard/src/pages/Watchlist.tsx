// dashboard: the watchlist: saved companies, newest first, each removable.
import { useState } from 'preact/hooks';
import { PagedFooter } from '../components/PagedFooter.js';
import { Empty, ErrorNotice } from '../components/ui.js';
import { formatDate } from '../csv.js';
import { useGuard, usePaged } from '../hooks.js';
import { useClient } from '../session.js';

export function WatchlistPage() {
  const client = useClient();
  const guard = useGuard();
  const list = usePaged((cursor) => client.saved.list({ cursor, limit: 50 }), [client]);
  const [error, setError] = useState<unknown>(null);
  const remove = async (domain: string) => {
    setError(null);
    try {
      await guard(() => client.saved.remove(domain));
      list.setItems((items) => items.filter((i) => i.domain !== domain));
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <section>
      <h1>Watchlist</h1>
      <ErrorNotice error={error} />
      {!list.loading && !list.error && list.items.length === 0 ? (
        <Empty>Nothing saved yet. Save a competitor from a search's results with ☆ Save.</Empty>
      ) : (
        <div class="table-wrap">
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Company</th>
                <th scope="col">Domain</th>
                <th scope="col">Saved</th>
                <th scope="col">From search</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((s) => (
                <tr key={s.domain} data-testid="saved-row">
                  <td data-label="Company">{s.company ?? '—'}</td>
                  <td data-label="Domain">
                    <a href={`https://${s.domain}`} target="_blank" rel="noopener noreferrer">
                      {s.domain}
                    </a>
                  </td>
                  <td data-label="Saved">{formatDate(s.savedAt)}</td>
                  <td data-label="From search">{s.searchId ? <a href={`/searches/${s.searchId}`}>open</a> : '—'}</td>
                  <td>
                    <button type="button" class="secondary small" onClick={() => remove(s.domain)} aria-label={`Remove ${s.domain} from the watchlist`}>
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <PagedFooter list={list} />
    </section>
  );
}
