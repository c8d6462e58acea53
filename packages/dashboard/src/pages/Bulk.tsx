// dashboard: bulk research. Drop a CSV (or choose one): up to 5 MB goes straight to the API, larger files through
// a presigned upload; a live progress bar while the job runs; the job list with cancel and download.
import { useEffect, useRef, useState } from 'preact/hooks';
import { DIRECT_UPLOAD_MAX_BYTES, type BulkJob, type BulkJobSummary, type BulkUploadAccepted } from '@rivals/sdk/browser';
import { ListTable } from '../components/ListTable.js';
import { ConfirmDialog, ErrorNotice } from '../components/ui.js';
import { downloadText, formatDate } from '../csv.js';
import { useAction, usePaged } from '../hooks.js';
import { useClient, useSession } from '../session.js';

const TERMINAL = ['completed', 'failed', 'cancelled'];
const POLL_MS = 1000;

export function BulkPage() {
  const client = useClient();
  const { refreshBalance, setBalance } = useSession();
  const action = useAction();
  const watch = useAction();
  const [limit, setLimit] = useState(10);
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
      const current = await watch.run(() => client.bulk.get(jobId, { limit: 1 }));
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

  const upload = async (file: File) => {
    setAccepted(null);
    setJob(null);
    setUploading(file.name);
    await action.run(async () => {
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (bytes.byteLength <= DIRECT_UPLOAD_MAX_BYTES) {
        const done = await client.bulk.upload(bytes, { limit, filename: file.name });
        setBalance(done.creditsRemaining);
        setAccepted({ ...done, filename: file.name });
      } else {
        // Larger files: straight to storage with a presigned URL; the job starts when the file lands.
        const target = await client.bulk.createUploadUrl({ filename: file.name, limit, sizeBytes: bytes.byteLength });
        await client.bulk.putFile(target.uploadUrl, bytes);
        setJob(await client.bulk.get(target.jobId, { limit: 1 }));
      }
      jobs.reload();
    });
    setUploading(null);
  };
  const onFiles = (files: FileList | null | undefined) => {
    const file = files?.[0];
    if (file) void upload(file);
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
          onFiles(e.dataTransfer?.files);
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
            onFiles(e.currentTarget.files);
            e.currentTarget.value = '';
          }}
        />
      </div>
      {uploading && (
        <p class="state" role="status">
          Uploading {uploading}…
        </p>
      )}
      <ErrorNotice error={action.error ?? watch.error} />
      {accepted && accepted.rejectedRows.length > 0 && (
        <details class="notice info">
          <summary>
            {accepted.rejectedRows.length} row{accepted.rejectedRows.length === 1 ? ' was' : 's were'} skipped (not charged)
          </summary>
          <ul>
            {accepted.rejectedRows.slice(0, 50).map((r) => (
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
