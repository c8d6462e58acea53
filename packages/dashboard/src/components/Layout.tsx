// dashboard: the frame of every page: the brand, the navigation, the balance (always visible) and sign-out. Signed
// out (a share page), only the brand and a sign-in link.
import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { useSession } from '../session.js';

const NAV = [
  ['/', 'Search'],
  ['/history', 'History'],
  ['/companies', 'My companies'],
  ['/watchlist', 'Watchlist'],
  ['/bulk', 'Bulk'],
  ['/keys', 'API keys'],
] as const;

export function Layout({ children }: { children: ComponentChildren }) {
  const { apiKey, balance, signOut } = useSession();
  const { path } = useLocation();
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/">
          <img src="/favicon.svg" alt="" width="24" height="24" />
          Rivals
        </a>
        {apiKey ? (
          <>
            <nav aria-label="Main">
              {NAV.map(([href, label]) => (
                <a key={href} href={href} aria-current={(href === '/' ? path === '/' || path.startsWith('/searches/') : path.startsWith(href)) ? 'page' : undefined}>
                  {label}
                </a>
              ))}
            </nav>
            <div class="account">
              <span class="balance" data-testid="balance" aria-live="polite" title="Credits left: a search costs 1">
                {balance === null ? '…' : balance} <span class="unit">credits</span>
              </span>
              <button type="button" class="secondary small" onClick={() => signOut()} data-testid="sign-out">
                Sign out
              </button>
            </div>
          </>
        ) : (
          <div class="account">
            <a href="/" class="button secondary small">
              Sign in
            </a>
          </div>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
