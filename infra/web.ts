// infra: the dashboard's serving rules, as data: CloudFront (constructs/web-front.ts) and the local runtime's front
// (packages/local/src/static.ts) both read them, so the dashboard runs under the same policy in both.

/** Where Vite writes the dashboard's built files, relative to the project root. */
export const DASHBOARD_DIST = 'packages/dashboard/dist';

/**
 * The dashboard loads code, styles and data from its own origin only (Vite's build needs no inline script). connect-src
 * also allows the uploads bucket's own origin, and no other (never all of `*.amazonaws.com`, which any bucket's owner
 * could receive data at): a CSV over 5 MB goes straight to that bucket by presigned PUT. In AWS that origin is the
 * bucket's regional virtual-hosted address (`https://<bucket>.s3.<region>.amazonaws.com`, where the SDK presigns);
 * locally, the local S3's.
 */
export const contentSecurityPolicy = (uploadOrigins: string[] = []) =>
  [
    "default-src 'self'",
    "img-src 'self' data:",
    "style-src 'self' 'unsafe-inline'",
    "script-src 'self'",
    `connect-src ${["'self'", ...uploadOrigins].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');

/** A path ending in a file extension asks for a file; any other path is one of the dashboard's own routes
 * (/history, /share/:token) and gets index.html. CloudFront's routing function is written from this same pattern. */
export const FILE_PATH = /\.[a-z0-9]+$/i;
export const isAppRoute = (path: string) => !FILE_PATH.test(path);

/**
 * The header CloudFront's `/api/*` behaviour adds with the host the viewer asked for (CloudFront sends API Gateway
 * its own host), so that the API makes absolute links on the dashboard's origin. functions/shared/public-origin.ts
 * reads the same name (infra imports no runtime code, so it is repeated there).
 */
export const PUBLIC_HOST_HEADER = 'x-rivals-public-host';
