// dashboard: the search page. A domain and optional filters; 1 credit a search (refunded when it fails or finds
// nothing). The stored search is read back for the evidence behind each row.
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { CompetitorType, SearchRequest, StoredSearch } from '@rivals/sdk/browser';
import { SearchView } from '../components/SearchView.js';
import { ErrorNotice, Loading, TYPES } from '../components/ui.js';
import { useGuard } from '../hooks.js';
import { useClient, useSession } from '../session.js';

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

export function SearchPage() {
  const client = useClient();
  const { setBalance, refreshBalance } = useSession();
  const guard = useGuard();
  const [domain, setDomain] = useState('');
  const [limit, setLimit] = useState(25);
  const [types, setTypes] = useState<CompetitorType[]>([]);
  const [minMatchScore, setMinMatchScore] = useState('');
  const [countries, setCountries] = useState('');
  const [exclude, setExclude] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<StoredSearch | null>(null);
  // The shown search is in the address (/?search=<id>), so that Back from another page brings it back.
  const { query, route } = useLocation();
  const shownId = query.search;
  useEffect(() => {
    if (!shownId || result?.id === shownId) return;
    guard(() => client.searches.get(shownId)).then(setResult, setError);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shownId]);

  const submit = async (e: Event) => {
    e.preventDefault();
    const request: SearchRequest = { domain: domain.trim(), limit };
    if (types.length) request.types = types;
    if (minMatchScore !== '') request.minMatchScore = Number(minMatchScore);
    if (list(countries).length) request.countries = list(countries);
    if (list(exclude).length) request.exclude = list(exclude);
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const found = await guard(() => client.search(request));
      setBalance(found.creditsRemaining);
      const stored = found.searchId ? await guard(() => client.searches.get(found.searchId!)) : null;
      setResult(stored);
      if (stored) route(`/?search=${encodeURIComponent(stored.id)}`, true);
    } catch (caught) {
      setError(caught);
      void refreshBalance();
    } finally {
      setBusy(false);
    }
  };

  return (
    <section>
      <h1>Find competitors</h1>
      <form class="search-form" onSubmit={submit} role="search">
        <div class="search-line">
          <label for="domain" class="visually-hidden">
            Company domain
          </label>
          <input
            id="domain"
            type="text"
            inputMode="url"
            autoComplete="off"
            placeholder="Company domain, e.g. stripe.com"
            value={domain}
            onInput={(e) => setDomain(e.currentTarget.value)}
            required
            data-testid="search-input"
          />
          <button type="submit" disabled={busy || !domain.trim()} data-testid="search-submit">
            {busy ? 'Searching…' : 'Search'}
          </button>
        </div>
        <details class="filters">
          <summary>Filters</summary>
          <div class="filter-grid">
            <label>
              Results (1–100)
              <input type="number" min={1} max={100} value={limit} onInput={(e) => setLimit(Number(e.currentTarget.value) || 25)} data-testid="limit" />
            </label>
            <label>
              Minimum match score
              <input type="number" min={0} max={100} placeholder="0–100" value={minMatchScore} onInput={(e) => setMinMatchScore(e.currentTarget.value)} />
            </label>
            <label>
              Countries
              <input type="text" placeholder="US, DE" value={countries} onInput={(e) => setCountries(e.currentTarget.value)} />
            </label>
            <label>
              Exclude domains
              <input type="text" placeholder="paypal.com, adyen.com" value={exclude} onInput={(e) => setExclude(e.currentTarget.value)} />
            </label>
            <fieldset>
              <legend>Only these types</legend>
              {TYPES.map((t) => (
                <label key={t} class="inline">
                  <input
                    type="checkbox"
                    checked={types.includes(t)}
                    onChange={() => setTypes((ts) => (ts.includes(t) ? ts.filter((x) => x !== t) : [...ts, t]))}
                  />
                  {t}
                </label>
              ))}
            </fieldset>
          </div>
        </details>
        <p class="muted small">A search costs 1 credit, refunded if it fails or finds no competitors.</p>
      </form>
      {busy && <Loading label={`Researching ${domain.trim()}… this can take up to 25 seconds.`} />}
      <ErrorNotice error={error} />
      {result && (
        <>
          <h2 class="result-title">
            {result.totalCompetitors} competitors of <span class="domain">{result.domain}</span>{' '}
            <span class="muted small">
              ({result.likelyCompetitors} likely · {result.elapsedSeconds ?? 0}s · <a href={`/searches/${result.id}`}>permanent page</a>)
            </span>
          </h2>
          <SearchView domain={result.domain} competitors={result.competitors} searchId={result.id} />
        </>
      )}
    </section>
  );
}
