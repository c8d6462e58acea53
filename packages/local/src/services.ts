// composition root outside Lambda (the local runtime, the operator command, tests): accounts, keys and the ledger wired
// on a table. The Lambda container (functions/shared/container.ts) wires the same adapters, lazily.
import { AccountService, ApiKeyService, systemClock, ulidIds } from '@rivals/core';
import { DynamoAccountStore, DynamoApiKeyStore, DynamoCreditsLedger, type TableRef } from '@rivals/db';

export function tableServices(table: TableRef) {
  const ids = ulidIds();
  const ledger = new DynamoCreditsLedger(table, ids);
  const keyStore = new DynamoApiKeyStore(table);
  return {
    ids,
    ledger,
    keyStore,
    accounts: new AccountService({ accounts: new DynamoAccountStore(table, ledger), ledger, clock: systemClock, ids }),
    apiKeys: new ApiKeyService({ keys: keyStore, clock: systemClock, ids }),
  };
}
