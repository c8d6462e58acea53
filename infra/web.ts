// infra: the dashboard's serving rules, as data: CloudFront (constructs/web-front.ts) and the local runtime's front
// (packages/local/src/static.ts) both read them, so the dashboard runs under the same policy in both.

/** Where Vite writes the dashboard's built files, relative to the project root. */
export const DASHBOARD_DIST = 'packages/dashboard/dist';

/**
 * The dashboard loads code, styles and data from its own origin only (Vite's build needs no inline script). connect-src
 * also allows S3 (`https://*.amazonaws.com`): a CSV over 5 MB goes straight to the uploads bucket by presigned PUT.
 */
export const contentSecurityPolicy = (extraConnectSources: string[] = []) =>
  [
    "default-src 'self'",
    "img-src 'self' data:",
    "style-src 'self' 'unsafe-inline'",
    "script-src 'self'",
    `connect-src ${["'self'", 'https://*.amazonaws.com', ...extraConnectSources].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');

/** A path without a file extension is one of the dashboard's own routes (/history, /share/:token): it gets index.html. */
export const isAppRoute = (path: string) => !/\.[a-z0-9]+$/i.test(path);
