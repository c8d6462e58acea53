// local runtime: the dashboard's built files, served as CloudFront serves them in AWS (infra/web.ts): a file when
// one exists, index.html for the app's own routes (SPA fallback), hashed assets cached for good, index.html never,
// the same security headers. A path can never leave the dist folder.
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { contentSecurityPolicy, isAppRoute } from '../../../infra/web.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

export interface StaticSiteOptions {
  /** The built dashboard (Vite's dist). */
  root: string;
  /** More origins the page may connect to (the local S3 of presigned uploads). */
  connectSources?: string[];
}

/** Serves a GET or HEAD for a non-API path. */
export function createStaticSite(options: StaticSiteOptions) {
  const root = resolve(options.root);
  const headers = {
    'content-security-policy': contentSecurityPolicy(options.connectSources),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
  const answer = (req: IncomingMessage, res: ServerResponse, status: number, extra: Record<string, string>, body: Buffer | string) => {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    res.writeHead(status, { ...headers, 'content-length': String(bytes.length), ...extra }).end(req.method === 'HEAD' ? undefined : bytes);
  };
  const text = (req: IncomingMessage, res: ServerResponse, status: number, message: string, more: Record<string, string> = {}) =>
    answer(req, res, status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...more }, message);
  const fileAt = async (path: string) => {
    try {
      return (await stat(path)).isFile() ? path : null;
    } catch {
      return null;
    }
  };

  return async (req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return text(req, res, 405, 'Method not allowed.', { allow: 'GET, HEAD' });
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return text(req, res, 400, 'Malformed path.');
    }
    if (decoded.includes('\0')) return text(req, res, 400, 'Malformed path.');
    // Resolved under the root and checked to stay there: `..`, encoded or not, and backslashes cannot climb out.
    const target = resolve(root, `.${decoded.startsWith('/') ? decoded : `/${decoded}`}`);
    const inside = target === root || target.startsWith(root + sep);
    const found = inside && target !== root ? await fileAt(target) : null;
    const index = resolve(root, 'index.html');
    if (found && found !== index) {
      const immutable = found.startsWith(resolve(root, 'assets') + sep);
      return answer(req, res, 200, { 'content-type': TYPES[extname(found).toLowerCase()] ?? 'application/octet-stream', 'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache' }, await readFile(found));
    }
    if (!isAppRoute(decoded) && decoded !== '/index.html') return text(req, res, 404, 'Not found.');
    if (!(await fileAt(index))) return text(req, res, 503, 'The dashboard is not built: run `npm run dashboard:build` (npm ci builds it).');
    return answer(req, res, 200, { 'content-type': TYPES['.html']!, 'cache-control': 'no-store' }, await readFile(index));
  };
}
