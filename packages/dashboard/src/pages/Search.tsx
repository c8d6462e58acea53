// dashboard: the search page. A domain (or several seed domains: look-alikes) and optional filters, the screening
// filters among them; 1 credit a search (refunded when it fails or finds nothing). The stored search is read back for
// the evidence and firmographics behind each row.
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { CompetitorType, Ownership, SearchFilters, StoredSearch } from '@rivals/sdk/browser';
import { SearchView } from '../components/SearchView.js';
import { ErrorNotice, Loading, TYPES } from '../components/ui.js';
import { useGuard } from '../hooks.js';
import { useClient, useSession } from '../session.js';

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

const SIZES = ['1-10', '11-50', '51-200', '201-500', '501-1000', '1001-5000', '5001-10000', '10001+'] as const;
const OWNERSHIPS: Ownership[] = ['public', 'private', 'subsidiary'];
const toggle = <T,>(items: T[], item: T) => (items.includes(item) ? items.filter((x) => x !== item) : [...items, item]);

/** A filter of several values: a checkbox each (test ids `<testId>-<value>` when given). */
function CheckboxGroup<T extends string>(props: { legend: string; options: readonly T[]; checked: readonly T[]; onToggle(value: T): void; testId?: string }) {
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {props.options.map((value) => (
        <label key={value} class="inline">
          <input type="checkbox" checked={props.checked.includes(value)} onChange={() => props.onToggle(value)} {...(props.testId ? { 'data-testid': `${props.testId}-${value}` } : {})} />
          {value}
        </label>
      ))}
    </fieldset>
  );
}

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
  const [mode, setMode] = useState<'one' | 'several'>('one');
  const [seeds, setSeeds] = useState('');
  const [sizes, setSizes] = useState<(typeof SIZES)[number][]>([]);
  const [foundedFrom, setFoundedFrom] = useState('');
  const [foundedTo, setFoundedTo] = useState('');
  const [ownership, setOwnership] = useState<Ownership[]>([]);
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
    const filters: SearchFilters & { limit: number } = { limit };
    if (types.length) filters.types = types;
    if (minMatchScore !== '') filters.minMatchScore = Number(minMatchScore);
    if (list(countries).length) filters.countries = list(countries);
    if (list(exclude).length) filters.exclude = list(exclude);
    if (sizes.length) filters.sizes = sizes;
    if (foundedFrom !== '') filters.foundedFrom = Number(foundedFrom);
    if (foundedTo !== '') filters.foundedTo = Number(foundedTo);
    if (ownership.length) filters.ownership = ownership;
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const found = await guard<{ creditsRemaining: number; searchId: string | null }>(() =>
        mode === 'several' ? client.lookalikes({ domains: list(seeds), ...filters }) : client.search({ domain: domain.trim(), ...filters }),
      );
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
      <h1>{mode === 'several' ? 'Find look-alikes' : 'Find competitors'}</h1>
      <form class="search-form" onSubmit={submit} role="search">
        <div class="view-switch" role="group" aria-label="Search for">
          <button type="button" class={mode === 'one' ? 'on' : 'secondary'} aria-pressed={mode === 'one'} onClick={() => setMode('one')} data-testid="mode-one">
            Rivals of one company
          </button>
          <button type="button" class={mode === 'several' ? 'on' : 'secondary'} aria-pressed={mode === 'several'} onClick={() => setMode('several')} data-testid="mode-several">
            Look-alikes of several
          </button>
        </div>
        {mode === 'several' ? (
          <div class="search-line">
            <label for="seeds" class="visually-hidden">
              Seed company domains
            </label>
            <textarea
              id="seeds"
              rows={3}
              placeholder="2 to 20 company domains, e.g. your best customers: delta.com, united.com, aa.com"
              value={seeds}
              onInput={(e) => setSeeds(e.currentTarget.value)}
              required
              data-testid="seeds-input"
            />
            <button type="submit" disabled={busy || list(seeds).length === 0 || list(seeds).length > 20} data-testid="search-submit">
              {busy ? 'Searching…' : 'Find look-alikes'}
            </button>
          </div>
        ) : (
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
        )}
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
            <label>
              Founded from
              <input type="number" min={1000} max={2100} placeholder="e.g. 2015" value={foundedFrom} onInput={(e) => setFoundedFrom(e.currentTarget.value)} data-testid="founded-from" />
            </label>
            <label>
              Founded to
              <input type="number" min={1000} max={2100} placeholder="e.g. 2020" value={foundedTo} onInput={(e) => setFoundedTo(e.currentTarget.value)} data-testid="founded-to" />
            </label>
            <CheckboxGroup legend="Ownership" options={OWNERSHIPS} checked={ownership} onToggle={(o) => setOwnership((os) => toggle(os, o))} testId="ownership" />
            <CheckboxGroup legend="Size (people)" options={SIZES} checked={sizes} onToggle={(sz) => setSizes((ss) => toggle(ss, sz))} testId="size" />
            <CheckboxGroup legend="Only these types" options={TYPES} checked={types} onToggle={(t) => setTypes((ts) => toggle(ts, t))} />
          </div>
        </details>
        <p class="muted small">
          A search costs 1 credit (look-alikes too, whatever the number of seeds), refunded if it fails or finds nothing. Screening filters
          (founded, ownership, size, countries) leave out companies whose fact is unknown.
        </p>
      </form>
      {busy && <Loading label={`Researching ${mode === 'several' ? list(seeds).join(', ') : domain.trim()}… this can take up to 25 seconds.`} />}
      <ErrorNotice error={error} />
      {result && (
        <>
          <h2 class="result-title">
            {result.seeds ? (
              <>
                {result.totalCompetitors} companies like <span class="domain">{result.seeds.join(', ')}</span>{' '}
              </>
            ) : (
              <>
                {result.totalCompetitors} competitors of <span class="domain">{result.domain}</span>{' '}
              </>
            )}
            <span class="muted small">
              ({result.likelyCompetitors} likely · {result.elapsedSeconds ?? 0}s · <a href={`/searches/${result.id}`}>permanent page</a>)
            </span>
          </h2>
          <SearchView domain={result.domain} seeds={result.seeds} competitors={result.competitors} searchId={result.id} />
        </>
      )}
    </section>
  );
}
