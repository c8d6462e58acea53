// dashboard: the public share page, /share/:token. Read without an API key; nothing about the owner is shown.
import { useEffect, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import type { SharedSearch } from '@rivals/sdk/browser';
import { SearchView } from '../components/SearchView.js';
import { ErrorNotice, Loading } from '../components/ui.js';
import { formatDate } from '../csv.js';
import { describeError } from '../errors.js';
import { clientFor } from '../session.js';

export function SharePage() {
  const { params } = useRoute();
  const token = params.token ?? '';
  const [shared, setShared] = useState<SharedSearch | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    setShared(null);
    setError(null);
    clientFor().searches.shared(token).then(setShared, setError);
  }, [token]);
  if (error) {
    if (describeError(error).code === 'not_found')
      return (
        <section class="notice error" role="alert" data-testid="error">
          <h1>This link does not work</h1>
          <p>The share link is wrong, or its owner has stopped sharing the search.</p>
        </section>
      );
    return <ErrorNotice error={error} />;
  }
  if (!shared) return <Loading />;
  return (
    <section data-testid="shared-search">
      <h1>
        Competitors of <span class="domain">{shared.domain}</span>
      </h1>
      <p class="muted">
        Shared search from {formatDate(shared.createdAt)} · {shared.totalCompetitors} competitors, {shared.likelyCompetitors} likely
      </p>
      <SearchView domain={shared.domain} seeds={shared.seeds} competitors={shared.competitors} readOnly />
    </section>
  );
}
