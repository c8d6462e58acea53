// dashboard: API keys. Create (the key is shown once, with copy), list, revoke after confirmation. Revoking the key
// this tab is signed in with ends the session.
import { useState } from 'preact/hooks';
import type { ApiKeySummary, CreatedApiKey } from '@rivals/sdk/browser';
import { PagedFooter } from '../components/PagedFooter.js';
import { ConfirmDialog, CopyButton, Dialog, Empty, ErrorNotice } from '../components/ui.js';
import { formatDate } from '../csv.js';
import { useGuard, usePaged } from '../hooks.js';
import { useClient, useSession } from '../session.js';

export function KeysPage() {
  const client = useClient();
  const { apiKey, signOut } = useSession();
  const guard = useGuard();
  const keys = usePaged((cursor) => client.keys.list({ cursor, limit: 50 }), [client]);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKeySummary | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const isCurrent = (k: ApiKeySummary) => !!apiKey && apiKey.startsWith(k.prefix) && apiKey.endsWith(k.last4);

  const create = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setCreated(await guard(() => client.keys.create(name.trim() ? { name: name.trim() } : {})));
      setName('');
      keys.reload();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (key: ApiKeySummary) => {
    setRevoking(null);
    setError(null);
    try {
      await guard(() => client.keys.revoke(key.id));
      if (isCurrent(key)) return signOut('You revoked the key this tab was signed in with. Sign in with another key.');
      keys.reload();
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <section>
      <h1>API keys</h1>
      <form class="toolbar" onSubmit={create}>
        <label>
          New key name{' '}
          <input type="text" maxLength={100} placeholder="e.g. CRM sync" value={name} onInput={(e) => setName(e.currentTarget.value)} data-testid="key-name" />
        </label>
        <button type="submit" disabled={busy} data-testid="create-key">
          {busy ? 'Creating…' : 'Create key'}
        </button>
      </form>
      <ErrorNotice error={error} />
      {!keys.loading && !keys.error && keys.items.length === 0 ? (
        <Empty>No keys.</Empty>
      ) : (
        <div class="table-wrap">
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.items.map((k) => (
                <tr key={k.id} data-testid="key-row" data-key-id={k.id} data-revoked={k.revokedAt ? 'true' : 'false'}>
                  <td data-label="Name">
                    {k.name ?? <span class="muted">unnamed</span>}
                    {isCurrent(k) && <span class="badge current">this tab</span>}
                  </td>
                  <td data-label="Key">
                    <code>
                      {k.prefix}…{k.last4}
                    </code>
                  </td>
                  <td data-label="Created">{formatDate(k.createdAt)}</td>
                  <td data-label="Last used">{formatDate(k.lastUsedAt)}</td>
                  <td data-label="Status">{k.revokedAt ? <span class="status status-failed">revoked {formatDate(k.revokedAt)}</span> : <span class="status status-succeeded">active</span>}</td>
                  <td>
                    {!k.revokedAt && (
                      <button type="button" class="danger small" onClick={() => setRevoking(k)} data-testid="revoke-key" aria-label={`Revoke key ${k.name ?? k.prefix}`}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <PagedFooter list={keys} />

      <Dialog
        open={created !== null}
        title="Your new API key"
        onClose={() => setCreated(null)}
        testId="new-key-dialog"
        footer={
          <button type="button" onClick={() => setCreated(null)} data-testid="close-new-key">
            I have saved it
          </button>
        }
      >
        <p>
          Copy it now: <strong>it is shown only this once</strong>. Rivals keeps only a hash of it.
        </p>
        <div class="key-line">
          <label>
            <span class="visually-hidden">New API key</span>
            <input readOnly value={created?.key ?? ''} data-testid="new-key" onFocus={(e) => e.currentTarget.select()} />
          </label>
          <CopyButton text={created?.key ?? ''} testId="copy-key" />
        </div>
      </Dialog>
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && void revoke(revoking)}
      >
        <p>
          <code>
            {revoking?.prefix}…{revoking?.last4}
          </code>{' '}
          {revoking?.name && `(${revoking.name}) `}stops working at once, everywhere it is used. This cannot be undone.
          {revoking && isCurrent(revoking) && <strong> It is the key this tab is signed in with: you will be signed out.</strong>}
        </p>
      </ConfirmDialog>
    </section>
  );
}
