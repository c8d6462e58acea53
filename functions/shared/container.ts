// composition root: adapters wired into services. Each is built on first use and kept for the container's life, so a
// function pays only for what it touches (the authorizer never loads the knowledge base).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { AccountService, ApiKeyService, SearchService, systemClock, ulidIds } from '@rivals/core';
import { createHomepageReader } from '@rivals/crawler';
import { createDocumentClient, DynamoAccountStore, DynamoApiKeyStore, DynamoCreditsLedger, DynamoProfileCache, DynamoSearchStore, SingleTableIdempotencyStore, type TableRef } from '@rivals/db';
import { createEngine } from '@rivals/engine';
import { providersFromEnv } from '@rivals/providers';
import { config } from './config.js';

const once = <T>(make: () => T): (() => T) => {
  let value: T | undefined;
  return () => (value ??= make());
};

const dynamo = once(() => new DynamoDBClient({}));
const table = once((): TableRef => ({ client: createDocumentClient(dynamo()), tableName: config.tableName }));
const ids = once(ulidIds);
const ledger = once(() => new DynamoCreditsLedger(table(), ids()));
const engine = once(() =>
  createEngine({
    homepage: createHomepageReader(),
    profileCache: new DynamoProfileCache(table()),
    // Off unless RIVALS_PROVIDERS names them; see @rivals/providers.
    providers: providersFromEnv(),
  }),
);

const registry = {
  ledger,
  engine,
  searches: once(() => new DynamoSearchStore(table())),
  idempotencyStore: once(() => new SingleTableIdempotencyStore(config.tableName, dynamo())),
  accountService: once(() => new AccountService({ accounts: new DynamoAccountStore(table(), ledger()), ledger: ledger(), clock: systemClock, ids: ids() })),
  apiKeyService: once(() => new ApiKeyService({ keys: new DynamoApiKeyStore(table()), clock: systemClock, ids: ids() })),
  searchService: once(() => new SearchService({ ledger: ledger(), engine: engine(), clock: systemClock, ids: ids(), deadlineMs: config.researchDeadlineMs })),
};

type Services = { readonly [K in keyof typeof registry]: ReturnType<(typeof registry)[K]> };

const view = Object.defineProperties(
  {},
  Object.fromEntries(Object.entries(registry).map(([name, get]) => [name, { get, enumerable: true }])),
) as Services;

/** The services of this container, each built on first access. */
export const services = (): Services => view;
