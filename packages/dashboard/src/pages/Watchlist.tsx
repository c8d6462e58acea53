// dashboard: the watchlist: saved companies, newest first, each removable; a badge counts the changes the monitor found
// since its timeline was last opened.
import { ListTable } from '../components/ListTable.js';
import { DomainLink, ErrorNotice } from '../components/ui.js';
import { formatDate } from '../csv.js';
import { useAction, usePaged } from '../hooks.js';
import { useClient } from '../session.js';

export function WatchlistPage() {
  const client = useClient();
  const list = usePaged((cursor) => client.saved.list({ cursor, limit: 50 }), [client]);
  const removal = useAction();
  const remove = async (domain: string) => {
    const removed = await removal.run(() => client.saved.remove(domain).then(() => true));
    if (removed) list.setItems((items) => items.filter((i) => i.domain !== domain));
  };
  return (
    <section>
      <h1>Watchlist</h1>
      <ErrorNotice error={removal.error} />
      <ListTable headers={['Company', 'Domain', 'Saved', 'Last checked', 'Changes', 'From search', '']} empty="Nothing saved yet. Save a competitor from a search's results with ☆ Save." count={list.items.length} list={list}>
        {list.items.map((s) => (
          <tr key={s.domain} data-testid="saved-row">
            <td data-label="Company">{s.company ?? '—'}</td>
            <td data-label="Domain">
              <DomainLink domain={s.domain} />
            </td>
            <td data-label="Saved">{formatDate(s.savedAt)}</td>
            <td data-label="Last checked">{s.lastCheckedAt ? formatDate(s.lastCheckedAt) : '—'}</td>
            <td data-label="Changes">
              <a href={`/watchlist/${encodeURIComponent(s.domain)}`} aria-label={`Changes for ${s.domain}`}>
                {s.unseenChanges > 0 ? (
                  <span class="badge unseen" data-testid="unseen-badge">
                    {s.unseenChanges} new
                  </span>
                ) : (
                  'timeline'
                )}
              </a>
            </td>
            <td data-label="From search">{s.searchId ? <a href={`/searches/${s.searchId}`}>open</a> : '—'}</td>
            <td>
              <button type="button" class="secondary small" onClick={() => remove(s.domain)} aria-label={`Remove ${s.domain} from the watchlist`}>
                Remove
              </button>
            </td>
          </tr>
        ))}
      </ListTable>
    </section>
  );
}
