// dashboard: the signed-in session. The API key lives in sessionStorage (gone with the tab; sign-out clears it), one
// SDK client per key, and the balance every page shows.
import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { Rivals } from '@rivals/sdk/browser';
import { isAuthError } from './errors.js';

const STORAGE_KEY = 'rivals.apiKey';

/** A client for this origin (the API is on the same origin as the dashboard, under /api). */
export const clientFor = (apiKey?: string) =>
  new Rivals({ baseUrl: location.origin, apiKey, maxRetries: 2, retryBaseDelayMs: 400, maxRetryDelayMs: 5_000, timeoutMs: 60_000 });

export interface Session {
  apiKey: string | null;
  client: Rivals | null;
  balance: number | null;
  /** Why the last session ended, when the dashboard ended it (a revoked key). */
  notice: string | null;
  signIn(apiKey: string): Promise<void>;
  signOut(notice?: string): void;
  setBalance(credits: number): void;
  refreshBalance(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ComponentChildren }) {
  const [apiKey, setApiKey] = useState<string | null>(() => sessionStorage.getItem(STORAGE_KEY));
  const [balance, setBalance] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const client = useMemo(() => (apiKey ? clientFor(apiKey) : null), [apiKey]);

  const signOut = useCallback((why?: string) => {
    sessionStorage.removeItem(STORAGE_KEY);
    setApiKey(null);
    setBalance(null);
    setNotice(why ?? null);
  }, []);
  const signIn = useCallback(async (key: string) => {
    // The balance read checks the key (free) before anything is kept.
    const { creditsRemaining } = await clientFor(key).balance();
    sessionStorage.setItem(STORAGE_KEY, key);
    setApiKey(key);
    setBalance(creditsRemaining);
    setNotice(null);
  }, []);
  const refreshBalance = useCallback(async () => {
    if (!client) return;
    try {
      setBalance((await client.balance()).creditsRemaining);
    } catch {
      // The page's own call reports errors; the balance keeps its last value.
    }
  }, [client]);

  // A reload keeps the tab's key: its balance is read again, and a key revoked meanwhile ends the session.
  useEffect(() => {
    if (!client) return;
    client.balance().then(
      (b) => setBalance(b.creditsRemaining),
      (error: unknown) => isAuthError(error) && signOut('Your API key is no longer valid (it may have been revoked). Sign in with another key.'),
    );
  }, [client, signOut]);

  const value = useMemo<Session>(
    () => ({ apiKey, client, balance, notice, signIn, signOut, setBalance, refreshBalance }),
    [apiKey, client, balance, notice, signIn, signOut, refreshBalance],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The signed-in client (pages under the signed-in layout only). */
export function useClient(): Rivals {
  const { client } = useSession();
  if (!client) throw new Error('useClient while signed out');
  return client;
}
