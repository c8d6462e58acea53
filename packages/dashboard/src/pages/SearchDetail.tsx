// dashboard: one past search, as stored (free to read), with everything the search page shows.
import { useRoute } from 'preact-iso';
import { SearchView } from '../components/SearchView.js';
import { ErrorNotice, Loading } from '../components/ui.js';
import { formatDate } from '../csv.js';
import { ERROR_SENTENCES } from '../errors.js';
import { useLoad } from '../hooks.js';
import { useClient } from '../session.js';

export function SearchDetailPage() {
  const { params } = useRoute();
  const client = useClient();
  const id = params.id ?? '';
  const search = useLoad(() => client.searches.get(id), [client, id]);
  if (search.loading && !search.data) return <Loading />;
  if (search.error) return <ErrorNotice error={search.error} onRetry={search.reload} />;
  const s = search.data;
  if (!s) return null;
  return (
    <section>
      <p class="crumbs">
        <a href="/history">← History</a>
      </p>
      <h1>
        {s.seeds && s.seeds.length > 1 ? 'Companies like' : 'Competitors of'} <span class="domain">{s.seeds?.join(', ') ?? s.domain}</span>
      </h1>
      <p class="muted">
        {formatDate(s.createdAt)} · {s.source === 'bulk' ? 'bulk job' : 'search'} · {s.totalCompetitors} competitors, {s.likelyCompetitors} likely
        {s.filters && Object.keys(s.filters).length > 0 && <> · filters: {JSON.stringify(s.filters)}</>}
      </p>
      {s.status === 'running' && (
        <p class="notice info">
          This search is still running. <button type="button" class="link" onClick={search.reload}>Refresh</button>
        </p>
      )}
      {s.status === 'failed' && (
        <p class="notice error" role="alert">
          This search failed: {(s.error && (ERROR_SENTENCES as Record<string, string>)[s.error]) ?? 'the research could not be completed.'} Its credit was refunded.
        </p>
      )}
      {s.status === 'succeeded' && <SearchView domain={s.domain} seeds={s.seeds} competitors={s.competitors} searchId={s.id} />}
    </section>
  );
}
