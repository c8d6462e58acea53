// dashboard: sign-in with an API key (checked with a free balance read before it is kept).
import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/ui.js';
import { useSession } from '../session.js';

export function SignIn() {
  const { signIn, notice } = useSession();
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(key.trim());
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="signin" id="main">
      <form onSubmit={submit} class="card" aria-labelledby="signin-title">
        <h1 id="signin-title">
          <img src="/favicon.svg" alt="" width="28" height="28" /> Rivals
        </h1>
        <p class="muted">Find any company's competitors. Sign in with your API key.</p>
        {notice && (
          <p class="notice info" role="status">
            {notice}
          </p>
        )}
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          placeholder="sk-live-…"
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
          required
          data-testid="api-key-input"
        />
        <p class="muted small">The key is kept in this tab only and forgotten when you sign out or close it.</p>
        <button type="submit" disabled={busy || !key.trim()} data-testid="sign-in">
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <ErrorNotice error={error} />
      </form>
    </main>
  );
}
