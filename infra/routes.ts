// infra: the route table, as data. The API stack makes one function per route from it, and the local runtime serves
// the same routes with the same handler files, so the two can never disagree.
export interface RouteSpec {
  /** Construct id and function name suffix. */
  id: string;
  method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';
  /** API Gateway path, `{name}` for path parameters. */
  path: string;
  /** Handler file, relative to the project root; it exports `handler`. */
  entry: string;
  /** False only for the keyless routes (health, the OpenAPI document, the public read of a share). */
  auth: boolean;
  /** What the function may do with the table; default: read for GET, write otherwise. */
  access?: 'none' | 'read' | 'write';
  /** Served by the function of that route (same entry file, which dispatches on the method): one function, not one each. */
  functionOf?: string;
  /** Indexes of the table the function queries (IAM grants them by name, never a wildcard). */
  indexes?: string[];
  /** The route reads the knowledge base (its bundle carries the index). */
  knowledgeBase?: boolean;
  /** The route runs searches: it sends settled searches to the aggregate queue and may consult the providers. */
  searches?: boolean;
  memoryMb?: number;
  timeoutSeconds?: number;
}

export const ROUTES: RouteSpec[] = [
  { id: 'Health', method: 'GET', path: '/api/health', entry: 'functions/http/health.ts', auth: false, access: 'none' },
  { id: 'OpenApi', method: 'GET', path: '/api/openapi.json', entry: 'functions/http/openapi.ts', auth: false, access: 'none' },
  {
    id: 'Search',
    method: 'POST',
    path: '/api/v1/search',
    entry: 'functions/http/search.ts',
    auth: true,
    knowledgeBase: true,
    searches: true,
    memoryMb: 1024,
    // API Gateway's integration limit is 29 s; the engine's own deadline is 25 s.
    timeoutSeconds: 28,
  },
  {
    id: 'Lookalikes',
    method: 'POST',
    path: '/api/v1/lookalikes',
    entry: 'functions/http/lookalikes.ts',
    auth: true,
    knowledgeBase: true,
    searches: true,
    memoryMb: 1024,
    // Up to 20 unknown seeds are read at once, within the same 25 s research deadline as a search.
    timeoutSeconds: 28,
  },
  { id: 'Balance', method: 'GET', path: '/api/v1/balance', entry: 'functions/http/balance.ts', auth: true },
  { id: 'GetSearch', method: 'GET', path: '/api/searches/{id}', entry: 'functions/http/get-search.ts', auth: true },
  // Bulk research: a 5 MB body parses and writes up to 10,000 domains within API Gateway's 29 s.
  { id: 'BulkUpload', method: 'POST', path: '/api/bulk/upload', entry: 'functions/http/bulk/upload.ts', auth: true, memoryMb: 1024, timeoutSeconds: 28 },
  { id: 'BulkUploadUrl', method: 'POST', path: '/api/bulk/upload-url', entry: 'functions/http/bulk/upload-url.ts', auth: true },
  { id: 'BulkListJobs', method: 'GET', path: '/api/bulk/jobs', entry: 'functions/http/bulk/list-jobs.ts', auth: true },
  { id: 'BulkGetJob', method: 'GET', path: '/api/bulk/jobs/{id}', entry: 'functions/http/bulk/get-job.ts', auth: true },
  { id: 'BulkDownload', method: 'GET', path: '/api/bulk/jobs/{id}/download', entry: 'functions/http/bulk/download.ts', auth: true, memoryMb: 1024, timeoutSeconds: 28 },
  { id: 'BulkCancelJob', method: 'DELETE', path: '/api/bulk/jobs/{id}', entry: 'functions/http/bulk/cancel-job.ts', auth: true, timeoutSeconds: 28 },
  { id: 'WebhookSecret', method: 'POST', path: '/api/webhook-secret', entry: 'functions/http/webhook-secret.ts', auth: true },
  { id: 'History', method: 'GET', path: '/api/history', entry: 'functions/http/history.ts', auth: true },
  // Writes: a read first finishes any aggregation a crash left pending (packages/db/src/companies.ts).
  { id: 'MyCompanies', method: 'GET', path: '/api/my-companies', entry: 'functions/http/my-companies.ts', auth: true, access: 'write', indexes: ['gsi1'], timeoutSeconds: 28 },
  { id: 'ShareSearch', method: 'POST', path: '/api/searches/{id}/share', entry: 'functions/http/share-search.ts', auth: true },
  { id: 'RevokeShare', method: 'DELETE', path: '/api/searches/{id}/share', entry: 'functions/http/revoke-share.ts', auth: true },
  { id: 'GetShared', method: 'GET', path: '/api/shared/{token}', entry: 'functions/http/get-shared.ts', auth: false },
  { id: 'ListSavedCompanies', method: 'GET', path: '/api/saved-companies', entry: 'functions/http/list-saved-companies.ts', auth: true, indexes: ['gsi1'] },
  // Without a name given, a saved company is named from the knowledge base (among others), and saving researches it
  // (free) to record its monitoring baseline with the search's engine: its bundle carries the index.
  { id: 'SaveCompany', method: 'POST', path: '/api/saved-companies', entry: 'functions/http/save-company.ts', auth: true, knowledgeBase: true, memoryMb: 1024, timeoutSeconds: 28 },
  { id: 'UpdateSavedCompany', method: 'PATCH', path: '/api/saved-companies/{domain}', entry: 'functions/http/update-saved-company.ts', auth: true },
  { id: 'RemoveSavedCompany', method: 'DELETE', path: '/api/saved-companies/{domain}', entry: 'functions/http/remove-saved-company.ts', auth: true },
  // Watchlist monitoring (docs/monitoring.md). Reading one company's changes marks them seen (a write).
  { id: 'ListChanges', method: 'GET', path: '/api/changes', entry: 'functions/http/list-changes.ts', auth: true, access: 'write', indexes: ['gsi1'] },
  // The account's webhook endpoint: one function for its three methods (the API stack stays under CloudFormation's 500 resources).
  { id: 'SetWebhookEndpoint', method: 'PUT', path: '/api/webhook-endpoint', entry: 'functions/http/webhook-endpoint.ts', auth: true },
  { id: 'GetWebhookEndpoint', method: 'GET', path: '/api/webhook-endpoint', entry: 'functions/http/webhook-endpoint.ts', auth: true, functionOf: 'SetWebhookEndpoint' },
  { id: 'RemoveWebhookEndpoint', method: 'DELETE', path: '/api/webhook-endpoint', entry: 'functions/http/webhook-endpoint.ts', auth: true, functionOf: 'SetWebhookEndpoint' },
  { id: 'CreateApiKey', method: 'POST', path: '/api/auth/api-keys', entry: 'functions/http/create-api-key.ts', auth: true },
  { id: 'ListApiKeys', method: 'GET', path: '/api/auth/api-keys', entry: 'functions/http/list-api-keys.ts', auth: true },
  // Both revocation routes run the same handler: the id comes from the path or from the body.
  { id: 'RevokeApiKey', method: 'DELETE', path: '/api/auth/api-keys/{id}', entry: 'functions/http/revoke-api-key.ts', auth: true },
  { id: 'RevokeApiKeyByBody', method: 'DELETE', path: '/api/auth/api-keys', entry: 'functions/http/revoke-api-key.ts', auth: true, functionOf: 'RevokeApiKey' },
];

/** The routes that revoke keys: they empty the stage's authorizer cache (apigateway:DELETE on it, and nothing else). */
export const FLUSHES_AUTHORIZER_CACHE = ['RevokeApiKey', 'RevokeApiKeyByBody'];

/** Queue and bucket workers: the same handler files in Lambda and in the local runtime (packages/local/src/workers.ts). */
export const WORKERS = {
  /** One SQS message per domain; the visibility timeout is six times the function's timeout (AWS's guidance). */
  bulkDomain: { id: 'BulkDomainWorker', entry: 'functions/workers/bulk-domain.ts', timeoutSeconds: 90, batchSize: 10, maxConcurrency: 10, memoryMb: 1024 },
  uploadLanded: { id: 'UploadLandedWorker', entry: 'functions/workers/upload-landed.ts', timeoutSeconds: 300, memoryMb: 1024 },
  webhookSender: { id: 'WebhookSenderWorker', entry: 'functions/workers/webhook-sender.ts', timeoutSeconds: 30, batchSize: 10, maxConcurrency: 5 },
  /** One message per settled search: counts it in the account's my-companies rows (off the search's path). */
  aggregate: { id: 'AggregateWorker', entry: 'functions/workers/aggregate.ts', timeoutSeconds: 30, batchSize: 10, maxConcurrency: 5 },
  /** Watched companies of a monitor run, five to a message, each researched within 25 s; at most 5 x 2 messages at once. */
  monitor: { id: 'MonitorWorker', entry: 'functions/workers/monitor.ts', timeoutSeconds: 180, batchSize: 2, maxConcurrency: 5, memoryMb: 1024 },
} as const;
export const UPLOADS_PREFIX = 'uploads/';
/**
 * Media types API Gateway passes to functions base64-encoded, byte for byte (the local front does the same). A text/csv
 * body stays text: base64 would grow a 5 MB CSV past Lambda's 6 MB event limit, and domains are ASCII anyway. A
 * multipart body must stay binary, so it carries about 4.4 MB of file in AWS.
 */
export const BINARY_MEDIA_TYPES = ['multipart/form-data'];
/** Functions run on a schedule (EventBridge in AWS; a timer in the local runtime). */
export interface ScheduledSpec {
  id: string;
  entry: string;
  indexes?: string[];
  everyMinutes: number;
  timeoutSeconds: number;
  /** Run by that worker's function (same entry) instead of a function of its own. */
  functionOf?: string;
}

/**
 * Refunds searches whose process died; a search is overdue 60 s after its 25 s deadline, so a lost credit is back
 * within about 6 minutes. Also bulk domains stuck past their deadline, and lost or dead-lettered work re-driven
 * (functions/workers/sweeper.ts).
 */
export const SWEEPER: ScheduledSpec = { id: 'Sweeper', entry: 'functions/workers/sweeper.ts', everyMinutes: 5, timeoutSeconds: 120, indexes: ['gsi1'] };

export const SCHEDULED: ScheduledSpec[] = [
  SWEEPER,
  // Starts a monitor run when the knowledge base's version changed (a deploy) or monitorEveryHours passed (daily by
  // default); a tick with nothing due reads one item. The fan-out sends every watched company to the monitor queue.
  // Run by the monitor worker's own function (its handler tells a schedule tick from a queue batch).
  { id: 'MonitorSchedule', entry: 'functions/workers/monitor.ts', everyMinutes: 60, timeoutSeconds: WORKERS.monitor.timeoutSeconds, functionOf: WORKERS.monitor.id },
];

/**
 * The re-drive window's default (REDRIVE_AFTER_SECONDS; packages/core/src/bulk/redrive.ts DEFAULT_REDRIVE): the
 * dead-letter age alarm fires when a dead letter outlives it plus one sweeper period (the sweeper drains them).
 */
export const REDRIVE_AFTER_SECONDS = 180;

/** A route's table access: as declared, else read for GET and write for the rest. */
export const accessOf = (route: RouteSpec): 'none' | 'read' | 'write' => route.access ?? (route.method === 'GET' ? 'read' : 'write');

export const AUTHORIZER = { id: 'ApiKeyAuthorizer', entry: 'functions/authorizer/api-key.ts', header: 'X-API-Key', cacheTtlSeconds: 60 } as const;

/** Environment variables every function reads (functions/shared/config.ts). */
export const ENV = {
  uploadsBucket: 'UPLOADS_BUCKET',
  bulkQueue: 'BULK_QUEUE_URL',
  webhookQueue: 'WEBHOOK_QUEUE_URL',
  aggregateQueue: 'AGGREGATE_QUEUE_URL',
  /** The dead-letter queues the sweeper drains and re-drives (comma-separated URLs). */
  deadLetterQueues: 'DEAD_LETTER_QUEUE_URLS',
  monitorQueue: 'MONITOR_QUEUE_URL',
  monitorEveryHours: 'MONITOR_EVERY_HOURS',
  bulkMaxDomains: 'BULK_MAX_DOMAINS',
  table: 'TABLE_NAME',
  kbIndex: 'KB_INDEX_PATH',
  freeCredits: 'FREE_CREDITS',
  deadline: 'RESEARCH_DEADLINE_MS',
  version: 'SERVICE_VERSION',
  publicBaseUrl: 'PUBLIC_BASE_URL',
  rateLimitKeyPerSecond: 'RATE_LIMIT_KEY_PER_SECOND',
  rateLimitKeyBurst: 'RATE_LIMIT_KEY_BURST',
  rateLimitIpPerSecond: 'RATE_LIMIT_IP_PER_SECOND',
  rateLimitIpBurst: 'RATE_LIMIT_IP_BURST',
  /** Set only on the functions that revoke keys: the stage whose authorizer cache they empty. */
  restApiId: 'REST_API_ID',
  apiStage: 'API_STAGE',
  /** Set only on the functions that seal and open webhook signing secrets: the secret holding their key. */
  webhookSecretKey: 'WEBHOOK_SECRET_KEY_ARN',
} as const;

/** Partition-key prefix of the rate-limit buckets (packages/db keys.rateBucket): every function may update those items. */
export const RATE_LIMIT_PARTITION = 'RATE#';
