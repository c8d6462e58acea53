// dashboard: one watched company's timeline: what the monitor found in its competitors, newest first, grouped by the
// day it was found. Opening it marks the company's changes seen (the API does, for a read with ?domain=).
import type { Change } from '@rivals/sdk';
import { useRoute } from 'preact-iso';
import { DomainLink, Empty, ErrorNotice, Loading, TypeBadge } from '../components/ui.js';
import { usePaged } from '../hooks.js';
import { useClient } from '../session.js';

const KIND_LABELS: Record<Change['kind'], string> = {
  new_competitor: 'New competitor',
  dropped: 'Dropped out',
  type_changed: 'Type changed',
  score_changed: 'Score changed',
};

function detail(change: Change) {
  const { competitor: now, previous } = change;
  if (change.kind === 'score_changed' && previous) return `match score ${previous.matchScore} → ${now.matchScore}`;
  if (change.kind === 'type_changed' && previous)
    return (
      <>
        <TypeBadge type={previous.type} /> → <TypeBadge type={now.type} />
      </>
    );
  return (
    <>
      <TypeBadge type={now.type} /> match score {now.matchScore}
    </>
  );
}

export function WatchedCompanyPage() {
  const { params } = useRoute();
  const domain = params.domain ?? '';
  const client = useClient();
  const list = usePaged((cursor) => client.changes.list({ domain, cursor, limit: 100 }), [client, domain]);
  const days = new Map<string, Change[]>();
  for (const change of list.items) {
    const day = change.detectedAt.slice(0, 10);
    days.set(day, [...(days.get(day) ?? []), change]);
  }
  return (
    <section>
      <p>
        <a href="/watchlist">← Watchlist</a>
      </p>
      <h1>
        Changes for <DomainLink domain={domain} />
      </h1>
      <p class="muted">The monitor re-researches every saved company daily and after each knowledge-base update, and lists here what changed in its top 25 competitors.</p>
      <ErrorNotice error={list.error} onRetry={list.reload} />
      {list.loading && list.items.length === 0 ? (
        <Loading />
      ) : list.items.length === 0 && !list.error ? (
        <Empty>No changes yet: its competitors are as they were when it was saved.</Empty>
      ) : (
        <ol class="timeline" data-testid="timeline">
          {[...days].map(([day, changes]) => (
            <li key={day}>
              <h2 class="small">{new Date(`${day}T12:00:00Z`).toLocaleDateString(undefined, { dateStyle: 'medium' })}</h2>
              <ul>
                {changes.map((c) => (
                  <li key={c.id} data-testid="change" data-kind={c.kind}>
                    <strong>{KIND_LABELS[c.kind]}</strong>: {c.competitor.company} (<DomainLink domain={c.competitor.domain} />) — {detail(c)}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
      {list.more && (
        <button type="button" class="secondary" onClick={list.loadMore} disabled={list.loading}>
          Older changes
        </button>
      )}
    </section>
  );
}
