// composition root outside Lambda (the local runtime, the operator command, tests): accounts, keys and the ledger wired
// on a table. The Lambda container (functions/shared/container.ts) wires the same adapters, lazily.
import { AccountService, ApiKeyService, LedgerAudit, systemClock, ulidIds, type AuthorizerCache } from '@rivals/core';
import { DynamoAccountStore, DynamoApiKeyStore, DynamoCreditsLedger, DynamoLedgerEntries, type TableRef } from '@rivals/db';
import { ENV } from '../../../infra/routes.js';

/** `authorizerCache`: the one a key revocation empties (the local front's, or a deployed stage's). */
export function tableServices(table: TableRef, options: { authorizerCache?: AuthorizerCache } = {}) {
  const ids = ulidIds();
  const ledger = new DynamoCreditsLedger(table, ids);
  const keyStore = new DynamoApiKeyStore(table);
  return {
    ids,
    ledger,
    keyStore,
    accounts: new AccountService({ accounts: new DynamoAccountStore(table, ledger), ledger, clock: systemClock, ids }),
    apiKeys: new ApiKeyService({ keys: keyStore, clock: systemClock, ids, ...options }),
    audit: new LedgerAudit({ entries: new DynamoLedgerEntries(table), ledger }),
  };
}

const RATE_LIMIT_VARIABLES = [ENV.rateLimitKeyPerSecond, ENV.rateLimitKeyBurst, ENV.rateLimitIpPerSecond, ENV.rateLimitIpBurst];

/**
 * For tools that drive a private local service harder than the documented limits allow (bench, eval): raises every
 * rate limit the caller did not set. The limiter still runs, so its cost stays in what they measure.
 */
export function raiseRateLimits(to = 100_000): void {
  for (const name of RATE_LIMIT_VARIABLES) process.env[name] ??= String(to);
}
