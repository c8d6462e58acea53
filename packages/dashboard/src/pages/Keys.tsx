// dashboard: API keys. Create (the key is shown once, with copy), list, revoke after confirmation. Revoking the key
// this tab is signed in with ends the session.
import { useState } from 'preact/hooks';
import type { ApiKeySummary, CreatedApiKey } from '@rivals/sdk/browser';
import { ListTable } from '../components/ListTable.js';
import { ConfirmDialog, CopyButton, Dialog, ErrorNotice } from '../components/ui.js';
import { formatDate } from '../csv.js';
import { useAction, usePaged } from '../hooks.js';
import { useClient, useSession } from '../session.js';

export function KeysPage() {
  const client = useClient();
  const { apiKey, signOut } = useSession();
  const action = useAction();
  const keys = usePaged((cursor) => client.keys.list({ cursor, limit: 50 }), [client]);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKeySummary | null>(null);
  const isCurrent = (k: ApiKeySummary) => !!apiKey && apiKey.startsWith(k.prefix) && apiKey.endsWith(k.last4);

  const create = async (e: Event) => {
    e.preventDefault();
    const made = await action.run(() => client.keys.create(name.trim() ? { name: name.trim() } : {}));
    if (!made) return;
    setCreated(made);
    setName('');
    keys.reload();
  };
  const revoke = async (key: ApiKeySummary) => {
    setRevoking(null);
    if (!(await action.run(() => client.keys.revoke(key.id).then(() => true)))) return;
    if (isCurrent(key)) return signOut('You revoked the key this tab was signed in with. Sign in with another key.');
    keys.reload();
  };

  return (
    <section>
      <h1>API keys</h1>
      <form class="toolbar" onSubmit={create}>
        <label>
          New key name{' '}
          <input type="text" maxLength={100} placeholder="e.g. CRM sync" value={name} onInput={(e) => setName(e.currentTarget.value)} data-testid="key-name" />
        </label>
        <button type="submit" disabled={action.busy} data-testid="create-key">
          {action.busy ? 'Creating…' : 'Create key'}
        </button>
      </form>
      <ErrorNotice error={action.error} />
      <ListTable headers={['Name', 'Key', 'Created', 'Last used', 'Status', '']} empty="No keys." count={keys.items.length} list={keys}>
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
      </ListTable>

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
