// dashboard: loading data for a page. One hook: the call, its loading and error states, a reload; a key that stopped
// working ends the session with a sentence saying why.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { isAuthError } from './errors.js';
import { useSession } from './session.js';

export interface Loaded<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload(): void;
  setData(update: (current: T | null) => T | null): void;
}

export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [round, setRound] = useState(0);
  const guard = useGuard();
  useEffect(() => {
    let live = true;
    setLoading(true);
    setError(null);
    guard(load)
      .then((value) => live && setData(value))
      .catch((caught: unknown) => live && setError(caught))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, round]);
  return { data, error, loading, reload: useCallback(() => setRound((r) => r + 1), []), setData };
}

/** Wraps a call so that an invalid key signs out (with a notice) before the error reaches the page. */
export function useGuard() {
  const { signOut } = useSession();
  const signOutRef = useRef(signOut);
  signOutRef.current = signOut;
  return useCallback(async <T,>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (isAuthError(error)) signOutRef.current('Your API key is no longer valid (it may have been revoked). Sign in with another key.');
      throw error;
    }
  }, []);
}

export interface Paged<T> {
  items: T[];
  loading: boolean;
  error: unknown;
  more: boolean;
  loadMore(): void;
  reload(): void;
  setItems(update: (items: T[]) => T[]): void;
}

/** A cursor-paged list (`{ items, nextCursor }`, newest first): the first page, then more on demand. */
export function usePaged<T>(page: (cursor?: string) => Promise<{ items: T[]; nextCursor: string | null }>, deps: unknown[]): Paged<T> {
  const [items, setItems] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [round, setRound] = useState(0);
  const guard = useGuard();
  const fetchPage = (from: string | undefined, replace: boolean, live: () => boolean) => {
    setLoading(true);
    setError(null);
    guard(() => page(from))
      .then((p) => {
        if (!live()) return;
        setItems((current) => (replace ? p.items : [...current, ...p.items]));
        setCursor(p.nextCursor);
      })
      .catch((caught: unknown) => live() && setError(caught))
      .finally(() => live() && setLoading(false));
  };
  useEffect(() => {
    let live = true;
    fetchPage(undefined, true, () => live);
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, round]);
  return {
    items,
    loading,
    error,
    more: cursor !== null,
    loadMore: () => cursor && fetchPage(cursor, false, () => true),
    reload: useCallback(() => setRound((r) => r + 1), []),
    setItems,
  };
}

export interface Action {
  busy: boolean;
  error: unknown;
  /** Runs a call (an invalid key signs out): busy meanwhile, its error kept for the page to show; the result or undefined. */
  run<T>(call: () => Promise<T>): Promise<T | undefined>;
  clear(): void;
}

/** One user action's states: what every button that calls the API needs. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const guard = useGuard();
  const run = useCallback(
    async <T,>(call: () => Promise<T>) => {
      setBusy(true);
      setError(null);
      try {
        return await guard(call);
      } catch (caught) {
        setError(caught);
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [guard],
  );
  return { busy, error, run, clear: useCallback(() => setError(null), []) };
}
