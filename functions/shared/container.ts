// composition root: adapters wired into services. Each is built on first use and kept for the container's life. The
// research side (engine, crawler, providers) lives in research.ts, so that only the search function bundles and
// loads it.
import { ApiGatewayAuthorizerCache } from '@rivals/aws/authorizer-cache';
import { AccountService, ApiKeyService, MyCompanies, SearchQueries, ShareService, Sweeper, systemClock, ulidIds, WatchlistService } from '@rivals/core';
import {
  createDocumentClient,
  createDynamoClient,
  DynamoAccountStore,
  DynamoApiKeyStore,
  DynamoCompanyStore,
  DynamoCreditsLedger,
  DynamoRateLimiter,
  DynamoRunningSearches,
  DynamoSavedCompanyStore,
  DynamoSearchStore,
  DynamoShareStore,
  SingleTableIdempotencyStore,
  type TableRef,
} from '@rivals/db';
import { companyNameLookup } from './company-names.js';
import { config } from './config.js';
import { logger, tracer } from './observability.js';

export const lazy = <T>(make: () => T): (() => T) => {
  let value: T | undefined;
  return () => (value ??= make());
};

const dynamo = lazy(() => tracer.captureAWSv3Client(createDynamoClient()));
const table = lazy((): TableRef => ({ client: createDocumentClient(dynamo()), tableName: config.tableName }));
const ids = lazy(ulidIds);
const ledger = lazy(() => new DynamoCreditsLedger(table(), ids()));
const searches = lazy(() => new DynamoSearchStore(table()));
const companies = lazy(() => new DynamoCompanyStore(table()));

/** API Gateway's authorizer cache of this stage, for the functions that revoke keys (REST_API_ID and API_STAGE set). */
const authorizerCache = () => {
  const stage = config.authorizerCacheStage;
  return stage ? { authorizerCache: ApiGatewayAuthorizerCache.of(stage.restApiId, stage.stageName) } : {};
};

const registry = {
  table,
  ids,
  ledger,
  searchQueries: lazy(() => new SearchQueries(searches())),
  companies,
  myCompanies: lazy(() => new MyCompanies(companies())),
  shareService: lazy(() => new ShareService({ searches: searches(), shares: new DynamoShareStore(table()), clock: systemClock, publicBaseUrl: config.publicBaseUrl })),
  watchlist: lazy(() => new WatchlistService({ saved: new DynamoSavedCompanyStore(table()), searches: searches(), clock: systemClock, names: companyNameLookup(table()) })),
  rateLimiter: lazy(() => new DynamoRateLimiter(table(), systemClock)),
  idempotencyStore: lazy(() => new SingleTableIdempotencyStore(config.tableName, dynamo())),
  accountService: lazy(() => new AccountService({ accounts: new DynamoAccountStore(table(), ledger()), ledger: ledger(), clock: systemClock, ids: ids() })),
  sweeper: lazy(
    () =>
      new Sweeper({
        running: new DynamoRunningSearches(table()),
        ledger: ledger(),
        clock: systemClock,
        onError: (search, error) => logger.error('sweeper could not refund a search', { searchId: search.searchId, error: error as Error }),
      }),
  ),
  apiKeyService: lazy(
    () =>
      new ApiKeyService({
        keys: new DynamoApiKeyStore(table()),
        clock: systemClock,
        ids: ids(),
        onTouchFailure: (error) => logger.warn('lastUsedAt not recorded', { error: error as Error }),
        ...authorizerCache(),
      }),
  ),
};

type Services = { readonly [K in keyof typeof registry]: ReturnType<(typeof registry)[K]> };

const view = Object.defineProperties(
  {},
  Object.fromEntries(Object.entries(registry).map(([name, get]) => [name, { get, enumerable: true }])),
) as Services;

/** The services of this container, each built on first access. */
export const services = (): Services => view;
