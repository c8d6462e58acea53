// crawler adapter (secondary): why a homepage was not read. The reader turns every one of these into `null`; the reason
// goes to the optional `onSkip` observer so that operators can tell a refused address from a dead site.

export type SkipReason =
  | 'invalid-domain' // not a bare host name
  | 'unreachable' // DNS, refused, reset, TLS or connect-timeout failure on every scheme tried
  | 'blocked-address' // the host (or a redirect target) resolves only to non-public addresses
  | 'timeout' // the whole read ran past its time limit
  | 'too-many-redirects'
  | 'bad-redirect' // a redirect without a usable http(s) target
  | 'http-status' // the page answered with a status other than 2xx or a redirect
  | 'not-html'
  | 'unreadable-body' // an unknown content encoding, or a body that broke off or would not decode
  | 'robots-disallowed'
  | 'no-text' // an HTML page with no title, description, heading or organisation name
  | 'error'; // anything unexpected

export class Skip extends Error {
  /** `retryOverHttp`: a network-level failure of the https attempt that the plain-http fallback may get around. */
  constructor(
    readonly reason: SkipReason,
    message: string,
    readonly retryOverHttp = false,
  ) {
    super(message);
    this.name = 'Skip';
  }
}
