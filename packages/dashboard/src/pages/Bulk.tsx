// dashboard: bulk research. Drop a CSV (or choose one): the page counts its domains and says what the job will cost,
// with the search filters to apply; nothing is reserved until the user starts it. Up to 5 MB goes straight to the API,
// larger files through a presigned upload; a live progress bar and each domain's result while the job runs; the job
// list with cancel and download.
import { useEffect, useRef, useState } from 'preact/hooks';
import { DIRECT_UPLOAD_MAX_BYTES, type BulkJob, type BulkJobSummary, type BulkUploadAccepted, type CompetitorType } from '@rivals/sdk/browser';
import { ListTable } from '../components/ListTable.js';
import { ConfirmDialog, ErrorNotice, TYPES } from '../components/ui.js';
import { ERROR_SENTENCES, REASON_SENTENCES } from '../errors.js';
import { downloadText, formatDate } from '../csv.js';
import { useAction, usePaged } from '../hooks.js';
import { useClient, useSession } from '../session.js';

const TERMINAL = ['completed', 'failed', 'cancelled'];
const POLL_MS = 1000;
/** Per-domain results shown on the page; the download has them all. */
const RESULTS_SHOWN = 100;
const DOMAIN_COLUMNS = ['domain', 'website', 'url', 'homepage', 'company_domain', 'company_website'];

/**
 * The distinct domains a CSV seems to hold, counted as the API reads it (a named domain column, else the first; a
 * header row skipped): what the job will reserve at most. The API has the last word, rejecting rows it cannot use.
 */
export function countDomains(text: string): number {
  const rows = text.split(/\r?\n/).map((line) => line.split(',').map((cell) => cell.trim().replace(/^"|"$/g, '').toLowerCase()));
  const first = rows[0] ?? [];
  const named = first.findIndex((cell) => DOMAIN_COLUMNS.includes(cell));
  const column = named >= 0 ? named : 0;
  const body = named >= 0 || !(first[0] ?? '').includes('.') ? rows.slice(1) : rows;
  const domains = body.map((cells) => (cells[column] ?? '').replace(/^[a-z]+:\/\//, '').replace(/^www\./, '').replace(/[/?#].*$/, '')).filter((d) => /^[a-z0-9.-]+\.[a-z]{2,}$/.test(d));
  return new Set(domains).size;
}

interface PendingFile {
  file: File;
  bytes: Uint8Array;
  domains: number;
}

export function BulkPage() {
  const client = useClient();
  const { balance, refreshBalance, setBalance } = useSession();
  const action = useAction();
  const watch = useAction();
  const [limit, setLimit] = useState(10);
  const [types, setTypes] = useState<CompetitorType[]>([]);
  const [minScore, setMinScore] = useState('');
  const [countries, setCountries] = useState('');
  const [exclude, setExclude] = useState('');
  const [pending, setPending] = useState<PendingFile | null>(null);
  const [dragging, setDragging] = useState(false);
  const [uploading, setUploading] = useState<string | null>(null);
  const [accepted, setAccepted] = useState<(BulkUploadAccepted & { filename: string }) | null>(null);
  const [job, setJob] = useState<BulkJob | null>(null);
  const [cancelling, setCancelling] = useState<BulkJobSummary | null>(null);
  const jobs = usePaged((cursor) => client.bulk.list({ cursor, limit: 20 }), [client]);
  const input = useRef<HTMLInputElement>(null);

  // The job being watched: polled until it ends, then the list and the balance catch up.
  const jobId = job?.jobId ?? accepted?.jobId ?? null;
  useEffect(() => {
    if (!jobId) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      const current = await watch.run(() => client.bulk.get(jobId, { limit: RESULTS_SHOWN }));
      if (!live) return;
      if (current) setJob(current);
      if (current && TERMINAL.includes(current.status)) {
        jobs.reload();
        void refreshBalance();
        return;
      }
      timer = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jobId]);

  /** The filters, as the API takes them (empty ones left out). */
  const filters = () => {
    const items = (text: string) => text.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);
    return {
      ...(types.length ? { types } : {}),
      ...(minScore !== '' ? { minMatchScore: Number(minScore) } : {}),
      ...(items(countries).length ? { countries: items(countries).map((c) => c.toUpperCase()) } : {}),
      ...(items(exclude).length ? { exclude: items(exclude) } : {}),
    };
  };
  const upload = async ({ file, bytes }: PendingFile) => {
    setPending(null);
    setAccepted(null);
    setJob(null);
    setUploading(file.name);
    await action.run(async () => {
      if (bytes.byteLength <= DIRECT_UPLOAD_MAX_BYTES) {
        const done = await client.bulk.upload(bytes, { limit, filename: file.name, ...filters() });
        setBalance(done.creditsRemaining);
        setAccepted({ ...done, filename: file.name });
      } else {
        // Larger files: straight to storage with a presigned URL; the job starts when the file lands.
        const target = await client.bulk.createUploadUrl({ filename: file.name, limit, sizeBytes: bytes.byteLength, ...filters() });
        await client.bulk.putFile(target.uploadUrl, bytes);
        setJob(await client.bulk.get(target.jobId, { limit: 1 }));
      }
      jobs.reload();
    });
    setUploading(null);
  };
  /** A chosen file is only read and counted: the job (and its credits) waits for the user's go. */
  const onFiles = async (files: FileList | null | undefined) => {
    const file = files?.[0];
    if (!file) return;
    setAccepted(null);
    const bytes = new Uint8Array(await file.arrayBuffer());
    setPending({ file, bytes, domains: countDomains(new TextDecoder().decode(bytes)) });
  };
  const download = (id: string) => action.run(async () => downloadText(`rivals-bulk-${id}.csv`, await client.bulk.download(id)));
  const cancel = async (target: BulkJobSummary) => {
    setCancelling(null);
    await action.run(async () => {
      await client.bulk.cancel(target.jobId);
      if (jobId === target.jobId) setJob(await client.bulk.get(target.jobId, { limit: 1 }));
      jobs.reload();
      void refreshBalance();
    });
  };

  const done = job ? job.completedDomains + job.failedDomains + job.cancelledDomains : 0;
  const rejected = (job?.rejectedRows.length ? job.rejectedRows : accepted?.rejectedRows) ?? [];
  return (
    <section>
      <h1>Bulk research</h1>
      <p class="muted">
        A CSV with one company domain per row (a column named domain or website, or the first column). Each domain costs 1 credit, reserved when the
        file is accepted; domains that fail or find nothing are refunded.
      </p>
      <div class="toolbar">
        <label>
          Competitors per domain{' '}
          <input type="number" min={1} max={100} value={limit} onInput={(e) => setLimit(Number(e.currentTarget.value) || 10)} data-testid="bulk-limit" />
        </label>
        <fieldset data-testid="bulk-types">
          <legend>Types</legend>
          {TYPES.map((t) => (
            <label key={t} class="inline">
              <input type="checkbox" data-testid={`bulk-type-${t}`} checked={types.includes(t)} onChange={(e) => setTypes(e.currentTarget.checked ? [...types, t] : types.filter((x) => x !== t))} /> {t}
            </label>
          ))}
        </fieldset>
        <label>
          Min. score <input type="number" min={0} max={100} value={minScore} onInput={(e) => setMinScore(e.currentTarget.value)} data-testid="bulk-min-score" />
        </label>
        <label>
          Countries <input type="text" placeholder="US, DE" value={countries} onInput={(e) => setCountries(e.currentTarget.value)} data-testid="bulk-countries" />
        </label>
        <label>
          Exclude <input type="text" placeholder="paypal.com" value={exclude} onInput={(e) => setExclude(e.currentTarget.value)} data-testid="bulk-exclude" />
        </label>
      </div>
      <div
        class={`dropzone${dragging ? ' dragging' : ''}`}
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          void onFiles(e.dataTransfer?.files);
        }}
      >
        <p>
          <strong>Drop a CSV file here</strong> or{' '}
          <button type="button" class="link" onClick={() => input.current?.click()}>
            choose a file
          </button>
        </p>
        <p class="muted small">Up to 50 MB and 10,000 domains.</p>
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv"
          class="visually-hidden"
          aria-label="CSV file of domains"
          data-testid="bulk-file"
          onChange={(e) => {
            void onFiles(e.currentTarget.files);
            e.currentTarget.value = '';
          }}
        />
      </div>
      {pending && (
        <div class="card" data-testid="bulk-confirm">
          <h2>{pending.file.name}</h2>
          <p data-testid="bulk-cost">
            {pending.domains === 0
              ? 'No domains found in this file: check that it has a column named domain or website, or domains in its first column.'
              : `${pending.domains} domain${pending.domains === 1 ? '' : 's'}: up to ${pending.domains} credit${pending.domains === 1 ? '' : 's'}, reserved when you start${balance === null ? '' : ` (you have ${balance})`}. Domains that fail or find nothing are refunded; rows that are not domains are skipped and cost nothing.`}
          </p>
          {balance !== null && pending.domains > balance && <p class="notice error">That is more credits than you have left: the job would be refused.</p>}
          <div class="actions">
            <button type="button" onClick={() => void upload(pending)} disabled={pending.domains === 0} data-testid="bulk-start">
              Start research
            </button>
            <button type="button" class="secondary" onClick={() => setPending(null)}>
              Choose another file
            </button>
          </div>
        </div>
      )}
      {uploading && (
        <p class="state" role="status">
          Uploading {uploading}…
        </p>
      )}
      <ErrorNotice error={action.error ?? watch.error} />
      {rejected.length > 0 && (
        <details class="notice info" data-testid="bulk-rejected">
          <summary>
            {rejected.length} row{rejected.length === 1 ? ' was' : 's were'} skipped (not charged)
          </summary>
          <ul>
            {rejected.slice(0, 50).map((r) => (
              <li key={r.row}>
                Row {r.row}: <code>{r.value}</code> — {r.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      {job && (
        <div class="card job-progress" data-testid="job-progress" data-status={job.status}>
          <h2>
            {job.filename ?? accepted?.filename ?? 'Your file'}: <span class={`status status-${job.status}`}>{job.status.replace('_', ' ')}</span>
          </h2>
          <progress max={Math.max(1, job.totalDomains)} value={done} data-testid="bulk-progress" aria-label="Bulk job progress" />
          <p>
            {done} of {job.totalDomains} domains done
            {job.failedDomains > 0 && `, ${job.failedDomains} failed`}
            {job.cancelledDomains > 0 && `, ${job.cancelledDomains} cancelled`}. Credits: {job.creditsCharged} charged, {job.creditsRefunded} refunded.
          </p>
          {job.error && <p class="notice error">This job could not run: {job.error.replace(/_/g, ' ')}.</p>}
          {job.results.length > 0 && (
            <table class="results" data-testid="bulk-results">
              <thead>
                <tr>
                  <th>Domain</th>
                  <th>Status</th>
                  <th class="num">Competitors</th>
                  <th>Details</th>
                </tr>
              </thead>
              <tbody>
                {job.results.map((r) => (
                  <tr key={r.domain} data-testid="bulk-result" data-status={r.status}>
                    <td data-label="Domain">{r.searchId && r.status === 'succeeded' ? <a href={`/searches/${r.searchId}`}>{r.domain}</a> : r.domain}</td>
                    <td data-label="Status">
                      <span class={`status status-${r.status}`}>{r.status}</span>
                    </td>
                    <td data-label="Competitors" class="num">
                      {r.totalCompetitors ?? ''}
                    </td>
                    <td data-label="Details">{r.reason ? REASON_SENTENCES[r.reason] : r.error ? ((ERROR_SENTENCES as Record<string, string>)[r.error] ?? r.error.replace(/_/g, ' ')) : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {job.nextCursor && <p class="muted small">The first {job.results.length} domains are shown; the download has every result.</p>}
          <div class="actions">
            {!TERMINAL.includes(job.status) && (
              <button type="button" class="secondary" onClick={() => setCancelling(job)}>
                Cancel
              </button>
            )}
            {(job.status === 'completed' || job.status === 'cancelled') && (
              <button type="button" onClick={() => download(job.jobId)} data-testid="download-job">
                Download results (CSV)
              </button>
            )}
          </div>
        </div>
      )}
      <h2>Jobs</h2>
      <ListTable headers={['File', 'Started', 'Status', 'Progress', 'Credits', '']} empty="No bulk jobs yet." count={jobs.items.length} list={jobs}>
        {jobs.items.map((j) => (
          <tr key={j.jobId} data-testid="job-row" data-status={j.status}>
            <td data-label="File">
              {j.filename ?? 'CSV upload'} <span class="muted small">{j.jobId}</span>
            </td>
            <td data-label="Started">{formatDate(j.createdAt)}</td>
            <td data-label="Status">
              <span class={`status status-${j.status}`}>{j.status.replace('_', ' ')}</span>
            </td>
            <td data-label="Progress">
              {j.completedDomains + j.failedDomains + j.cancelledDomains} / {j.totalDomains}
            </td>
            <td data-label="Credits">
              {j.creditsCharged} charged{j.creditsRefunded > 0 && `, ${j.creditsRefunded} refunded`}
            </td>
            <td>
              <div class="row-actions">
                <button type="button" class="secondary small" onClick={() => setJob({ ...j, rejectedRows: [], webhookAttempts: [], results: [], nextCursor: null })}>
                  Watch
                </button>
                {!TERMINAL.includes(j.status) && (
                  <button type="button" class="secondary small" onClick={() => setCancelling(j)}>
                    Cancel
                  </button>
                )}
                {(j.status === 'completed' || j.status === 'cancelled') && (
                  <button type="button" class="secondary small" onClick={() => download(j.jobId)}>
                    Download
                  </button>
                )}
              </div>
            </td>
          </tr>
        ))}
      </ListTable>
      <ConfirmDialog
        open={cancelling !== null}
        title="Cancel this job?"
        confirmLabel="Cancel job"
        onCancel={() => setCancelling(null)}
        onConfirm={() => cancelling && void cancel(cancelling)}
      >
        <p>Domains not yet researched stop and their credits are refunded. Results found so far stay downloadable.</p>
      </ConfirmDialog>
    </section>
  );
}
