// dashboard: one search's competitors: the market map, the table (sortable, filterable by type), the evidence behind
// each row, save to the watchlist, the share link and a CSV export. The search page, a search's detail page and the
// public share page all show a search through this one view (the share page read-only).
import { Fragment } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import type { Competitor, CompetitorType, Firmographics, StoredCompetitor } from '@rivals/sdk/browser';
import { downloadText, toCsv } from '../csv.js';
import { useAction } from '../hooks.js';
import { useSession } from '../session.js';
import { MarketMap } from './MarketMap.js';
import { SegmentMap } from './SegmentMap.js';
import { CopyButton, DomainLink, Empty, ErrorNotice, ScoreBar, TypeBadge, TYPES } from './ui.js';

type Row = Competitor & Partial<Pick<StoredCompetitor, 'evidence' | 'firmographics' | 'similarTo'>>;
type SortKey = 'rank' | 'company' | 'domain' | 'matchScore' | 'type' | 'confidence' | 'likelyCompetitor';

const COLUMNS: { key: SortKey; label: string; numeric?: boolean }[] = [
  { key: 'rank', label: 'Rank', numeric: true },
  { key: 'company', label: 'Company' },
  { key: 'domain', label: 'Domain' },
  { key: 'matchScore', label: 'Match score', numeric: true },
  { key: 'type', label: 'Type' },
  { key: 'confidence', label: 'Confidence', numeric: true },
  { key: 'likelyCompetitor', label: 'Likely' },
];
/** The API's firmographics CSV columns (contracts' FIRMOGRAPHICS_CSV_COLUMNS; not imported, to keep zod out of the bundle). */
const FIRMOGRAPHICS_CSV_COLUMNS = ['founded', 'size', 'hq', 'ownership', 'exchange', 'ticker'] as const satisfies readonly (keyof Firmographics)[];
const CSV_COLUMNS = [
  'rank', 'company', 'domain', 'matchScore', 'type', 'confidence', 'likelyCompetitor', 'similarTo', ...FIRMOGRAPHICS_CSV_COLUMNS,
] as const;
/** A row as the CSV export writes it: firmographics flattened into their columns, similarTo joined with "; ". */
const csvRow = (r: Row): Record<string, unknown> => ({ ...r, similarTo: r.similarTo?.join('; ') ?? '', ...r.firmographics });

type MapView = 'segments' | 'score';
/** The map view last chosen in this tab: the next search opens in it too. */
let lastView: MapView = 'segments';

export interface SearchViewProps {
  domain: string;
  /** A look-alike search's seeds: the map's title names them. */
  seeds?: string[] | undefined;
  competitors: Row[];
  /** The stored search's id: enables save (linked to it) and share. */
  searchId?: string | null;
  readOnly?: boolean;
}

export function SearchView({ domain, seeds, competitors, searchId, readOnly }: SearchViewProps) {
  const [view, setViewState] = useState(() => lastView);
  const setView = (v: MapView) => setViewState((lastView = v));
  const [types, setTypes] = useState<Set<CompetitorType>>(() => new Set(TYPES));
  const [sort, setSort] = useState<{ key: SortKey; dir: 1 | -1 }>({ key: 'rank', dir: 1 });
  const [open, setOpen] = useState<Set<string>>(() => new Set());

  const shown = useMemo(() => {
    const rows = competitors.filter((c) => types.has(c.type));
    const { key, dir } = sort;
    return rows.sort((a, b) => {
      const av = a[key];
      const bv = b[key];
      const cmp = typeof av === 'string' ? av.localeCompare(bv as string) : Number(av) - Number(bv);
      return cmp * dir || a.rank - b.rank;
    });
  }, [competitors, types, sort]);

  const toggleType = (t: CompetitorType) => setTypes((s) => (s.has(t) ? new Set([...s].filter((x) => x !== t)) : new Set([...s, t])));
  const toggleOpen = (d: string) => setOpen((s) => (s.has(d) ? new Set([...s].filter((x) => x !== d)) : new Set([...s, d])));
  const sortBy = (key: SortKey) =>
    setSort((s) => (s.key === key ? { key, dir: s.dir === 1 ? -1 : 1 } : { key, dir: COLUMNS.find((c) => c.key === key)?.numeric && key !== 'rank' ? -1 : 1 }));
  const select = (d: string) => {
    setOpen((s) => new Set([...s, d]));
    requestAnimationFrame(() => document.getElementById(`row-${d}`)?.scrollIntoView({ block: 'center', behavior: 'smooth' }));
  };
  const counts = useMemo(() => Object.fromEntries(TYPES.map((t) => [t, competitors.filter((c) => c.type === t).length])), [competitors]);

  if (competitors.length === 0) return <Empty>No competitors in this search.</Empty>;
  return (
    <section class="search-view" aria-label={`Competitors of ${domain}`}>
      <div class="toolbar">
        <fieldset class="type-filter">
          <legend>Show types</legend>
          {TYPES.map((t) => (
            <label key={t} class={`chip type-${t.toLowerCase()}`}>
              <input type="checkbox" checked={types.has(t)} onChange={() => toggleType(t)} data-testid={`filter-${t}`} />
              {t} <span class="muted">({counts[t]})</span>
            </label>
          ))}
        </fieldset>
        <div class="actions">
          {!readOnly && searchId && <ShareButton searchId={searchId} />}
          <button type="button" class="secondary" onClick={() => downloadText(`rivals-${domain}.csv`, toCsv(CSV_COLUMNS, shown.map(csvRow)))} data-testid="export-csv">
            Export CSV
          </button>
        </div>
      </div>
      <div class="view-switch" role="group" aria-label="Map view">
        <button type="button" class={view === 'segments' ? 'on' : 'secondary'} aria-pressed={view === 'segments'} onClick={() => setView('segments')} data-testid="view-segments">
          Segments
        </button>
        <button type="button" class={view === 'score' ? 'on' : 'secondary'} aria-pressed={view === 'score'} onClick={() => setView('score')} data-testid="view-score">
          Scores
        </button>
      </div>
      {view === 'segments' ? (
        <SegmentMap
          title={seeds && seeds.length > 1 ? `Companies like ${seeds.join(', ')}` : `Competitive landscape of ${domain}`}
          rows={shown}
          fileName={`rivals-map-${domain}`}
        />
      ) : (
        <MarketMap competitors={shown} onSelect={select} />
      )}
      <p class="muted small" aria-live="polite">
        Showing {shown.length} of {competitors.length} competitors.
      </p>
      <div class="table-wrap">
        <table class="results">
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th key={c.key} scope="col" aria-sort={sort.key === c.key ? (sort.dir === 1 ? 'ascending' : 'descending') : undefined}>
                  <button type="button" class="sort" onClick={() => sortBy(c.key)}>
                    {c.label}
                    <span aria-hidden="true">{sort.key === c.key ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}</span>
                  </button>
                </th>
              ))}
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((c) => (
              <Fragment key={c.domain}>
                <tr data-testid="result-row" id={`row-${c.domain}`}>
                  <td data-label="Rank" class="num">
                    {c.rank}
                  </td>
                  <td data-label="Company" class="company">
                    {c.company}
                  </td>
                  <td data-label="Domain">
                    <DomainLink domain={c.domain} />
                  </td>
                  <td data-label="Match score">
                    <ScoreBar value={c.matchScore} label="Match score" />
                  </td>
                  <td data-label="Type">
                    <TypeBadge type={c.type} />
                  </td>
                  <td data-label="Confidence" class="num">
                    {c.confidence}
                  </td>
                  <td data-label="Likely">{c.likelyCompetitor ? <span class="likely" aria-label="Likely competitor" title="Likely competitor">●</span> : <span class="muted" aria-label="Not flagged">–</span>}</td>
                  <td>
                    <div class="row-actions">
                      {c.evidence && (
                        <button type="button" class="link" aria-expanded={open.has(c.domain)} onClick={() => toggleOpen(c.domain)} data-testid="why">
                          Why?
                        </button>
                      )}
                      {!readOnly && <SaveButton domain={c.domain} company={c.company} searchId={searchId ?? undefined} />}
                    </div>
                  </td>
                </tr>
                {c.evidence && open.has(c.domain) && (
                  <tr class="evidence-row">
                    <td colSpan={COLUMNS.length + 1}>
                      <Evidence row={c as StoredCompetitor} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

const SOURCES: Record<string, string> = { 'knowledge-base': 'Rivals knowledge base', homepage: 'the company\'s homepage' };
/** "US" -> "United States", in the browser's language; the code when the browser cannot name it. */
const countryName = (code: string) => {
  try {
    return new Intl.DisplayNames(undefined, { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
};

function Evidence({ row }: { row: StoredCompetitor }) {
  const { evidence } = row;
  return (
    <div class="evidence" data-testid="evidence">
      <h3>Why {row.company}</h3>
      {evidence.description && <p data-testid="evidence-description">{evidence.description}</p>}
      {evidence.signals.length > 0 && (
        <ul>
          {evidence.signals.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ul>
      )}
      <dl>
        {evidence.parentCompany && (
          <>
            <dt>Made by</dt>
            <dd>
              {evidence.parentCompany} ({row.domain})
            </dd>
          </>
        )}
        {evidence.headquarters && (
          <>
            <dt>Headquarters</dt>
            <dd data-testid="evidence-hq">{countryName(evidence.headquarters)}</dd>
          </>
        )}
        {evidence.size && (
          <>
            <dt>Size</dt>
            <dd>{evidence.size} employees</dd>
          </>
        )}
        {evidence.sharedCategories.length > 0 && (
          <>
            <dt>Shared categories</dt>
            <dd>{evidence.sharedCategories.join(', ')}</dd>
          </>
        )}
        {evidence.sharedKeywords.length > 0 && (
          <>
            <dt>Shared keywords</dt>
            <dd>{evidence.sharedKeywords.join(', ')}</dd>
          </>
        )}
        {row.similarTo && (
          <>
            <dt>Similar to</dt>
            <dd>{row.similarTo.join(', ')}</dd>
          </>
        )}
        {row.firmographics && (
          <>
            <dt>Company</dt>
            <dd data-testid="firmographics">{describeFirmographics(row.firmographics)}</dd>
          </>
        )}
        <dt>Source</dt>
        <dd>{SOURCES[evidence.source] ?? evidence.source}</dd>
      </dl>
    </div>
  );
}

const describeFirmographics = (f: NonNullable<Row['firmographics']>) =>
  [
    f.founded && `founded ${f.founded}`,
    f.size && `${f.size} people`,
    f.hq && `based in ${f.hq}`,
    f.ownership && (f.ownership === 'public' ? `public${f.exchange || f.ticker ? ` (${[f.exchange, f.ticker].filter(Boolean).join(': ')})` : ''}` : f.ownership),
  ]
    .filter(Boolean)
    .join(' · ') || 'unknown';

function SaveButton({ domain, company, searchId }: { domain: string; company: string; searchId?: string }) {
  const { client } = useSession();
  const saving = useAction();
  const [saved, setSaved] = useState(false);
  const save = async () => {
    if (client && (await saving.run(() => client.saved.add({ domain, company, searchId })))) setSaved(true);
  };
  return (
    <>
      <button type="button" class="secondary small" onClick={save} disabled={saved || saving.busy} data-testid="save" aria-label={`Save ${company} to the watchlist`}>
        {saved ? '★ Saved' : saving.busy ? 'Saving…' : '☆ Save'}
      </button>
      <ErrorNotice error={saving.error} />
    </>
  );
}

function ShareButton({ searchId }: { searchId: string }) {
  const { client } = useSession();
  const sharing = useAction();
  const [link, setLink] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const share = async () => {
    const created = client && (await sharing.run(() => client.searches.share(searchId)));
    if (!created) return;
    const url = new URL(created.url, location.origin).href;
    setLink(url);
    setCopied(await navigator.clipboard.writeText(url).then(() => true, () => false));
  };
  return (
    <div class="share">
      <button type="button" onClick={share} data-testid="share">
        Share
      </button>
      {link && (
        <span class="share-link">
          <label>
            <span class="visually-hidden">Public link</span>
            <input readOnly value={link} data-testid="share-link" onFocus={(e) => e.currentTarget.select()} />
          </label>
          {copied ? <span class="muted small" role="status">Link copied</span> : <CopyButton text={link} label="Copy link" />}
        </span>
      )}
      <ErrorNotice error={sharing.error} />
    </div>
  );
}
