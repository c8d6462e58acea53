// dashboard: the watchlist: saved companies, newest first, each with a note that can be edited, each removable; a
// badge counts the changes the monitor found since the company's timeline was last opened.
import { useState } from 'preact/hooks';
import { ListTable } from '../components/ListTable.js';
import { DomainLink, ErrorNotice } from '../components/ui.js';
import { formatDate } from '../csv.js';
import { useAction, usePaged } from '../hooks.js';
import { useClient } from '../session.js';

export function WatchlistPage() {
  const client = useClient();
  const list = usePaged((cursor) => client.saved.list({ cursor, limit: 50 }), [client]);
  const removal = useAction();
  const editing = useAction();
  /** The row whose note is being edited, and the text so far. */
  const [draft, setDraft] = useState<{ domain: string; note: string } | null>(null);
  const saveNote = async () => {
    if (!draft) return;
    const row = await editing.run(() => client.saved.update(draft.domain, { note: draft.note.trim() || null }));
    if (row) {
      list.setItems((items) => items.map((i) => (i.domain === row.domain ? row : i)));
      setDraft(null);
    }
  };
  const remove = async (domain: string) => {
    const removed = await removal.run(() => client.saved.remove(domain).then(() => true));
    if (removed) list.setItems((items) => items.filter((i) => i.domain !== domain));
  };
  return (
    <section>
      <h1>Watchlist</h1>
      <ErrorNotice error={removal.error ?? editing.error} />
      <ListTable headers={['Company', 'Domain', 'Note', 'Saved', 'Last checked', 'Changes', 'From search', '']} empty="Nothing saved yet. Save a competitor from a search's results with ☆ Save." count={list.items.length} list={list}>
        {list.items.map((s) => (
          <tr key={s.domain} data-testid="saved-row">
            <td data-label="Company">{s.company ?? '—'}</td>
            <td data-label="Domain">
              <DomainLink domain={s.domain} />
            </td>
            <td data-label="Note" data-testid="saved-note">
              {draft?.domain === s.domain ? (
                <form
                  class="inline-edit"
                  onSubmit={(e) => {
                    e.preventDefault();
                    void saveNote();
                  }}
                >
                  <input type="text" maxLength={500} value={draft.note} aria-label={`Note on ${s.domain}`} onInput={(e) => setDraft({ domain: s.domain, note: e.currentTarget.value })} data-testid="note-input" />
                  <button type="submit" class="small" data-testid="note-save">
                    Save
                  </button>
                  <button type="button" class="secondary small" onClick={() => setDraft(null)}>
                    Cancel
                  </button>
                </form>
              ) : (
                <>
                  {s.note ?? <span class="muted">—</span>}{' '}
                  <button type="button" class="link small" onClick={() => setDraft({ domain: s.domain, note: s.note ?? '' })} data-testid="note-edit" aria-label={`Edit the note on ${s.domain}`}>
                    Edit
                  </button>
                </>
              )}
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
