// cli: the stable exit codes of `rivals` (documented in --help and the README).
import { CommanderError } from 'commander';
import { BulkJobFailedError, RivalsError } from '@rivals/sdk';

export const EXIT = {
  ok: 0,
  usage: 1,
  api: 2,
  auth: 3,
  credits: 4,
  rateLimited: 5,
  server: 6,
} as const;

export const EXIT_CODES_HELP = `Exit codes:
  0  success
  1  usage error (unknown command or option, bad argument, conflicting options, a file that cannot be read or written)
  2  API error (4xx: invalid request or domain, not found, conflict, no competitors found; a failed bulk job)
  3  authentication (no API key given or stored, 401: missing or invalid API key)
  4  insufficient credits (402, or a bulk job that failed for want of credits)
  5  rate limited (429, after the retries)
  6  server or network error (5xx, timeout, API unreachable)`;

export function exitCodeFor(error: unknown): number {
  // The CLI's own errors (`rivals.usage`, `rivals.auth`) carry their code; commander's own are usage errors.
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : error.code.startsWith('rivals.') ? error.exitCode : EXIT.usage;
  if (!(error instanceof RivalsError)) return EXIT.server;
  if (error.code === 'missing_api_key' || error.status === 401) return EXIT.auth;
  if (error.status === 402 || error.code === 'insufficient_credits') return EXIT.credits;
  // A bulk job that could not run (an unreadable file, say) is the caller's to fix, as a 4xx is.
  if (error instanceof BulkJobFailedError) return EXIT.api;
  if (error.status === 429) return EXIT.rateLimited;
  if (error.status === null || error.status >= 500) return EXIT.server;
  return EXIT.api;
}
