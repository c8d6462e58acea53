// composition root: the research side (engine, homepage reader, profile cache, optional providers) wired into the
// search service. Only functions that search import this module, so only they bundle and load the knowledge base.
import { BulkWorker, MonitorService, SearchService, systemClock } from '@rivals/core';
import { DynamoDiscoveredStore, DynamoKbImportStore, DynamoProfileCache } from '@rivals/db';
import { createEngine } from '@rivals/engine';
import { providersFromEnv } from '@rivals/providers';
import { config } from './config.js';
import { aggregation, bulkJobs, searchStore, webhookQueue } from './bulk.js';
import { lazy, services } from './container.js';
import { homepageReader } from './homepage.js';
import { monitorDeps } from './monitor.js';
import { providerEnvironment } from './provider-secrets.js';

// Read during init (a top-level await), so that no request waits for Secrets Manager.
const providerEnv = await providerEnvironment();

const engine = lazy(() =>
  createEngine({
    homepage: homepageReader(),
    profileCache: new DynamoProfileCache(services().table),
    // The discovered layer: every homepage read well becomes a candidate of later searches (docs/learning.md).
    discovered: new DynamoDiscoveredStore(services().table),
    discoveryLimiter: services().rateLimiter,
    discoveriesPerHour: config.discoveriesPerHour,
    // Companies the team imported (npm run admin -- kb import), merged in live as curated entries.
    imports: new DynamoKbImportStore(services().table),
    // Off unless RIVALS_PROVIDERS names them; see @rivals/providers.
    providers: providersFromEnv(providerEnv),
  }),
);

export const searchService = lazy(
  () => new SearchService({ ledger: services().ledger, engine: engine(), clock: systemClock, ids: services().ids, deadlineMs: config.researchDeadlineMs, ...aggregation() }),
);

/** The bulk domain worker: the same engine as the synchronous search, charged from its job's reservation. */
export const bulkWorker = lazy(
  () =>
    new BulkWorker({
      jobs: bulkJobs(),
      ledger: services().ledger,
      engine: engine(),
      searches: searchStore(),
      webhookQueue: webhookQueue(),
      clock: systemClock,
      ids: services().ids,
      deadlineMs: config.researchDeadlineMs,
      // Longer than the worker's Lambda timeout, so that a live attempt is never taken over.
      takeoverAfterMs: config.bulkTakeoverAfterMs,
      ...aggregation(),
    }),
);

/** Watchlist checks (saving a company, the monitor worker): the search's engine, no credit (docs/monitoring.md). */
export const monitorChecks = lazy(() => new MonitorService(monitorDeps({ engine: engine(), kbVersion: engine().model.index.version })));

// The knowledge base is loaded while the function initialises, not inside the first request.
engine();
