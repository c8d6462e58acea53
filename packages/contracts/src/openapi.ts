// contracts: the OpenAPI 3.1 document of the API, generated from the same zod schemas the handlers validate with, so
// that the document and the service cannot disagree. Served at GET /api/openapi.json.
import { z } from 'zod';
import { ErrorBody, errorCodes, ERROR_STATUS, type ErrorCode } from './errors.js';
import { HistoryPage, MyCompanies, SaveCompanyRequest, SavedCompaniesPage, SavedCompany, SharedSearch, ShareLink, UpdateSavedCompanyRequest } from './account.js';
import { Change, ChangesPage, SetWebhookEndpointRequest, WatchlistChangedEvent, WebhookEndpoint } from './monitor.js';
import { ApiKeyList, CreateApiKeyRequest, CreatedApiKey, RevokeApiKeyRequest } from './api-keys.js';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from './pages.js';
import { Balance, Health, LookalikesRequest, LookalikesResult, SearchRequest, SearchResult, StoredSearch } from './search.js';
import { BULK_CSV_COLUMNS, BulkJob, BulkJobEvent, BulkJobList, BulkUploadAccepted, BulkUploadUrl, BulkUploadUrlRequest, WebhookSecret } from './bulk.js';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output' = 'output') => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ 'application/json': { schema: ref(name) } });

/** An error response listing the codes a route can answer with at that status. */
const errors = (...codes: ErrorCode[]) => {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description: list.map((c) => `\`${c}\``).join(', '),
        ...(status === ERROR_STATUS.rate_limited ? { headers: { ...requestId, 'Retry-After': { description: 'Seconds to wait before retrying.', ...integer } } } : {}),
        content: json('Error'),
      },
    ]),
  );
};

const integer = { schema: { type: 'integer', minimum: 0 } };
/** Headers of every answer of the functions: the request id and the state of the tightest rate-limit bucket. */
const requestId = {
  'X-Request-Id': { description: 'Identifies the request; error bodies repeat it.', schema: { type: 'string' } },
  'RateLimit-Limit': { description: 'Requests the tightest applicable bucket holds (its burst).', ...integer },
  'RateLimit-Remaining': { description: 'Requests left in that bucket now.', ...integer },
  'RateLimit-Reset': { description: 'Seconds until that bucket is full again.', ...integer },
};
const ok = (description: string, schema: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers: { ...requestId, ...headers },
  content: json(schema),
});

/** The errors every keyed route can answer with. */
const keyed: ErrorCode[] = ['missing_api_key', 'invalid_api_key', 'rate_limited', 'internal_error'];
const searchIdParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^srch_[0-9a-z]{26}$' } };
const noContent = (description: string) => ({ description, headers: requestId });

/** A paid research call (a search, a look-alike search): Idempotency-Key, X-Search-Id, refunded failures. */
const paidResearch = (operationId: string, summary: string, request: string, description: string, result: string) => ({
  operationId,
  summary,
  parameters: [
    {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'A retry with the same key within 24 h replays the first answer and never charges twice.',
      schema: { type: 'string', maxLength: 255 },
    },
  ],
  requestBody: { required: true, content: json(request) },
  responses: {
    '200': ok(description, result, {
      'X-Search-Id': { description: 'Id of the stored search, for GET /api/searches/{id}.', schema: { type: 'string' } },
      'Idempotent-Replayed': { description: '"true" when the answer is a replay.', schema: { type: 'string' } },
    }),
    ...errors(
      'invalid_request', 'invalid_domain', 'missing_api_key', 'invalid_api_key', 'insufficient_credits', 'idempotency_in_progress',
      'unsupported_media_type', 'no_competitors_found', 'idempotency_key_reused', 'rate_limited', 'internal_error', 'research_failed', 'research_timeout',
    ),
  },
});

const pageParameters = [
  { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: PAGE_LIMIT_MAX, default: PAGE_LIMIT_DEFAULT } },
  { name: 'cursor', in: 'query', required: false, description: 'The nextCursor of the previous page.', schema: { type: 'string' } },
];

export function openApiDocument(version: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Rivals API',
      version,
      description:
        'Competitor research: given a company domain, a ranked list of up to 100 competitors with match score, type, confidence and a likely-competitor flag. A search costs 1 credit; failed searches are refunded; reads are free.',
    },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: '`sk-live-` followed by at least 32 base62 characters.' } },
      schemas: {
        SearchRequest: jsonSchema(SearchRequest, 'input'),
        SearchResult: jsonSchema(SearchResult),
        StoredSearch: jsonSchema(StoredSearch),
        LookalikesRequest: jsonSchema(LookalikesRequest, 'input'),
        LookalikesResult: jsonSchema(LookalikesResult),
        Balance: jsonSchema(Balance),
        Health: jsonSchema(Health),
        BulkUploadAccepted: jsonSchema(BulkUploadAccepted),
        BulkUploadUrlRequest: jsonSchema(BulkUploadUrlRequest, 'input'),
        BulkUploadUrl: jsonSchema(BulkUploadUrl),
        BulkJob: jsonSchema(BulkJob),
        BulkJobList: jsonSchema(BulkJobList),
        BulkJobEvent: { ...jsonSchema(BulkJobEvent), description: 'Body of the webhook POST, signed in the Rivals-Signature header.' },
        WebhookSecret: jsonSchema(WebhookSecret),
        HistoryPage: jsonSchema(HistoryPage),
        MyCompanies: jsonSchema(MyCompanies),
        ShareLink: jsonSchema(ShareLink),
        SharedSearch: jsonSchema(SharedSearch),
        SaveCompanyRequest: jsonSchema(SaveCompanyRequest, 'input'),
        UpdateSavedCompanyRequest: jsonSchema(UpdateSavedCompanyRequest, 'input'),
        SavedCompany: jsonSchema(SavedCompany),
        SavedCompaniesPage: jsonSchema(SavedCompaniesPage),
        Change: jsonSchema(Change),
        ChangesPage: jsonSchema(ChangesPage),
        SetWebhookEndpointRequest: jsonSchema(SetWebhookEndpointRequest, 'input'),
        WebhookEndpoint: jsonSchema(WebhookEndpoint),
        WatchlistChangedEvent: { ...jsonSchema(WatchlistChangedEvent), description: "Body of the watchlist.changed POST to the account's webhook endpoint, signed in the Rivals-Signature header." },
        CreateApiKeyRequest: jsonSchema(CreateApiKeyRequest, 'input'),
        CreatedApiKey: jsonSchema(CreatedApiKey),
        ApiKeyList: jsonSchema(ApiKeyList),
        RevokeApiKeyRequest: jsonSchema(RevokeApiKeyRequest, 'input'),
        Error: { ...jsonSchema(ErrorBody), description: `Error codes: ${errorCodes.join(', ')}.` },
      },
    },
    paths: {
      '/api/v1/search': { post: paidResearch('search', 'Competitor search for a domain (1 credit; refunded when it fails)', 'SearchRequest', 'The ranked competitors.', 'SearchResult') },
      '/api/v1/lookalikes': {
        post: paidResearch(
          'lookalikes',
          'Companies like 1 to 20 seed companies at once, each with the seeds it is close to (1 credit; refunded when it fails)',
          'LookalikesRequest',
          'The ranked look-alikes.',
          'LookalikesResult',
        ),
      },
      '/api/v1/balance': {
        get: {
          operationId: 'getBalance',
          summary: 'Remaining search credits (free)',
          responses: { '200': ok('The balance.', 'Balance'), ...errors('missing_api_key', 'invalid_api_key', 'rate_limited') },
        },
      },
      '/api/searches/{id}': {
        get: {
          operationId: 'getSearch',
          summary: 'A past search with the evidence behind every row (free)',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^srch_[0-9a-z]{26}$' } }],
          responses: { '200': ok('The stored search.', 'StoredSearch'), ...errors('missing_api_key', 'invalid_api_key', 'not_found', 'rate_limited') },
        },
      },
      ...bulkPaths(),
      '/api/history': {
        get: {
          operationId: 'listHistory',
          summary: 'Past searches, api and bulk, newest first (free)',
          parameters: [
            ...pageParameters,
            { name: 'source', in: 'query', required: false, schema: { type: 'string', enum: ['api', 'bulk'] } },
            { name: 'status', in: 'query', required: false, schema: { type: 'string', enum: ['running', 'succeeded', 'failed'] } },
          ],
          responses: { '200': ok('One page of searches, without their competitors.', 'HistoryPage'), ...errors('invalid_request', ...keyed) },
        },
      },
      '/api/my-companies': {
        get: {
          operationId: 'listMyCompanies',
          summary: 'Every company found across your searches, most often found first, at most 5,000 rows (free)',
          parameters: [
            {
              name: 'format',
              in: 'query',
              required: false,
              description: '`csv` answers a CSV export (header row; list cells joined with "; "; formula-like cells prefixed with \').',
              schema: { type: 'string', enum: ['json', 'csv'], default: 'json' },
            },
          ],
          responses: {
            '200': {
              description: 'The companies; `total` counts them all when the list is capped.',
              headers: requestId,
              content: {
                ...json('MyCompanies'),
                'text/csv': { schema: { type: 'string', description: 'company,domain,timesFound,bestMatchScore,types,firstSeenAt,lastSeenAt,foundFor' } },
              },
            },
            ...errors('invalid_request', ...keyed),
          },
        },
      },
      '/api/searches/{id}/share': {
        post: {
          operationId: 'shareSearch',
          summary: 'A read-only link to a succeeded search (free); again: the same live link',
          parameters: [searchIdParameter],
          responses: {
            '201': ok('A new link.', 'ShareLink'),
            '200': ok('The live link the search already has.', 'ShareLink'),
            ...errors('not_found', 'conflict', ...keyed),
          },
        },
        delete: {
          operationId: 'revokeShare',
          summary: 'Revokes the search\'s link at once; a later share makes a new one (free)',
          parameters: [searchIdParameter],
          responses: { '204': { description: 'Revoked, or there was no link.', headers: requestId }, ...errors('not_found', ...keyed) },
        },
      },
      '/api/shared/{token}': {
        get: {
          operationId: 'getSharedSearch',
          summary: 'A shared search, read-only (no key)',
          security: [],
          parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': ok('The search, with nothing about its account.', 'SharedSearch'), ...errors('not_found', 'rate_limited') },
        },
      },
      '/api/saved-companies': {
        get: {
          operationId: 'listSavedCompanies',
          summary: 'The watchlist, newest first (free)',
          parameters: pageParameters,
          responses: { '200': ok('One page of saved companies.', 'SavedCompaniesPage'), ...errors('invalid_request', ...keyed) },
        },
        post: {
          operationId: 'saveCompany',
          summary: 'Saves a company to the watchlist (free; at most 1,000 companies)',
          requestBody: { required: true, content: json('SaveCompanyRequest') },
          responses: {
            '201': ok('Saved.', 'SavedCompany'),
            '200': ok('Saved before: the row, with the note, name or search given here updated.', 'SavedCompany'),
            ...errors('invalid_request', 'invalid_domain', 'not_found', 'conflict', 'unsupported_media_type', ...keyed),
          },
        },
      },
      '/api/changes': {
        get: {
          operationId: 'listChanges',
          summary: "What the monitor found in the watched companies' competitors, newest first (free)",
          description:
            'Every saved company is watched: each monitor run (daily, and after a new knowledge-base version) compares its top 25 competitors with the last check and records new_competitor, dropped, type_changed and score_changed (10 points or more). Reading with ?domain= marks that company\'s changes seen (its unseenChanges goes to 0).',
          parameters: [
            ...pageParameters,
            { name: 'domain', in: 'query', required: false, description: 'One watched company; its changes count as seen.', schema: { type: 'string' } },
            { name: 'since', in: 'query', required: false, description: 'Changes detected at or after this ISO 8601 time.', schema: { type: 'string', format: 'date-time' } },
          ],
          responses: { '200': ok('One page of changes.', 'ChangesPage'), ...errors('invalid_request', 'invalid_domain', ...keyed) },
        },
      },
      '/api/webhook-endpoint': {
        put: {
          operationId: 'setWebhookEndpoint',
          summary: "Sets the account's webhook endpoint for watchlist.changed events (https, a public address; a signing secret must exist)",
          requestBody: { required: true, content: json('SetWebhookEndpointRequest') },
          responses: { '200': ok('The endpoint.', 'WebhookEndpoint'), ...errors('invalid_request', 'unsupported_media_type', ...keyed) },
        },
        get: {
          operationId: 'getWebhookEndpoint',
          summary: "The account's webhook endpoint",
          responses: { '200': ok('The endpoint.', 'WebhookEndpoint'), ...errors('not_found', ...keyed) },
        },
        delete: {
          operationId: 'removeWebhookEndpoint',
          summary: "Removes the account's webhook endpoint (events not yet delivered are dropped)",
          responses: { '204': noContent('Removed, or there was none.'), ...errors(...keyed) },
        },
      },
      '/api/saved-companies/{domain}': {
        patch: {
          operationId: 'updateSavedCompany',
          summary: 'Changes the note or the name of a saved company; null clears it (free)',
          parameters: [{ name: 'domain', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: json('UpdateSavedCompanyRequest') },
          responses: { '200': ok('The row as updated.', 'SavedCompany'), ...errors('invalid_request', 'invalid_domain', 'not_found', 'unsupported_media_type', ...keyed) },
        },
        delete: {
          operationId: 'removeSavedCompany',
          summary: 'Removes a company from the watchlist (free)',
          parameters: [{ name: 'domain', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '204': { description: 'Removed, or it was not saved.', headers: requestId }, ...errors('invalid_domain', ...keyed) },
        },
      },
      '/api/auth/api-keys': {
        post: {
          operationId: 'createApiKey',
          summary: 'Create an API key (the key itself is in this answer only)',
          requestBody: { required: false, content: json('CreateApiKeyRequest') },
          responses: {
            '201': ok('The new key.', 'CreatedApiKey'),
            ...errors('invalid_request', 'missing_api_key', 'invalid_api_key', 'conflict', 'unsupported_media_type', 'rate_limited'),
          },
        },
        get: {
          operationId: 'listApiKeys',
          summary: 'API keys of the account, newest first (prefix and last four characters, never the key)',
          parameters: pageParameters,
          responses: { '200': ok('A page of keys.', 'ApiKeyList'), ...errors('invalid_request', 'missing_api_key', 'invalid_api_key', 'rate_limited') },
        },
        delete: {
          operationId: 'revokeApiKeyByBody',
          summary: 'Revoke the key named in the body (same as DELETE /api/auth/api-keys/{id})',
          requestBody: { required: true, content: json('RevokeApiKeyRequest') },
          responses: {
            '204': noContent('Revoked (also when it already was).'),
            ...errors('invalid_request', 'missing_api_key', 'invalid_api_key', 'not_found', 'conflict', 'unsupported_media_type', 'rate_limited'),
          },
        },
      },
      '/api/auth/api-keys/{id}': {
        delete: {
          operationId: 'revokeApiKey',
          summary: 'Revoke an API key; the last active key of the account cannot be revoked (409)',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^key_[0-9a-z]{26}$' } }],
          responses: {
            '204': noContent('Revoked (also when it already was).'),
            ...errors('missing_api_key', 'invalid_api_key', 'not_found', 'conflict', 'rate_limited'),
          },
        },
      },
      '/api/health': {
        get: {
          operationId: 'health',
          summary: 'Liveness (no key)',
          security: [],
          responses: {
            '200': ok('The service runs.', 'Health'),
            '503': ok('A part the service needs does not answer; `failing` names it.', 'Health'),
            ...errors('rate_limited'),
          },
        },
      },
      '/api/openapi.json': {
        get: {
          operationId: 'openApi',
          summary: 'This document (no key)',
          security: [],
          responses: { '200': { description: 'The OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } }, ...errors('rate_limited') },
        },
      },
    },
  };
}

const jobId = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^job_[0-9a-z]{26}$' } };
const paging = [
  { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
  { name: 'cursor', in: 'query', required: false, schema: { type: 'string' } },
];
const keyErrors = ['missing_api_key', 'invalid_api_key', 'rate_limited'] as const;

function bulkPaths() {
  return {
    '/api/bulk/upload': {
      post: {
        operationId: 'bulkUpload',
        summary: 'Starts a bulk job from a CSV (1 credit per unique valid domain, reserved up front; failed domains refunded)',
        parameters: [
          { name: 'limit', in: 'query', required: false, description: 'Competitors per domain.', schema: { type: 'integer', minimum: 1, maximum: 100, default: 100 } },
          { name: 'webhookUrl', in: 'query', required: false, description: 'https URL that receives bulk_job.completed.', schema: { type: 'string', format: 'uri' } },
          { name: 'exclude', in: 'query', required: false, description: 'Domains never returned, comma-separated (up to 100).', schema: { type: 'string' } },
          { name: 'types', in: 'query', required: false, description: 'Only these types, comma-separated: Direct, Indirect, Adjacent, Emerging.', schema: { type: 'string' } },
          { name: 'minMatchScore', in: 'query', required: false, description: 'Only competitors scoring at least this.', schema: { type: 'integer', minimum: 0, maximum: 100 } },
          { name: 'countries', in: 'query', required: false, description: 'Only competitors headquartered there: ISO 3166-1 alpha-2 codes, comma-separated.', schema: { type: 'string' } },
          { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } },
        ],
        requestBody: {
          required: true,
          content: {
            'text/csv': { schema: { type: 'string' } },
            'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] } },
          },
        },
        responses: {
          '202': ok('The job is queued.', 'BulkUploadAccepted'),
          ...errors('invalid_request', ...keyErrors, 'insufficient_credits', 'payload_too_large', 'unsupported_media_type', 'idempotency_key_reused', 'idempotency_in_progress', 'internal_error'),
        },
      },
    },
    '/api/bulk/upload-url': {
      post: {
        operationId: 'bulkUploadUrl',
        summary: 'A presigned S3 PUT for a CSV up to 50 MB of exactly sizeBytes bytes (send Content-Type: text/csv); the job starts when it lands',
        requestBody: { required: true, content: json('BulkUploadUrlRequest') },
        responses: { '201': ok('The upload URL.', 'BulkUploadUrl'), ...errors('invalid_request', ...keyErrors, 'conflict', 'payload_too_large', 'unsupported_media_type') },
      },
    },
    '/api/bulk/jobs': {
      get: {
        operationId: 'listBulkJobs',
        summary: "The caller's bulk jobs, newest first (free)",
        parameters: paging,
        responses: { '200': ok('A page of jobs.', 'BulkJobList'), ...errors('invalid_request', ...keyErrors) },
      },
    },
    '/api/bulk/jobs/{id}': {
      get: {
        operationId: 'getBulkJob',
        summary: 'A bulk job: status, counters, rejected rows, a page of per-domain results (free)',
        parameters: [jobId, ...paging],
        responses: { '200': ok('The job.', 'BulkJob'), ...errors('invalid_request', ...keyErrors, 'not_found') },
      },
      delete: {
        operationId: 'cancelBulkJob',
        summary: 'Cancels a queued or running job; domains not yet started are refunded at once',
        parameters: [jobId],
        responses: { '204': { description: 'Cancelled (or already ended).', headers: requestId }, ...errors(...keyErrors, 'not_found') },
      },
    },
    '/api/bulk/jobs/{id}/download': {
      get: {
        operationId: 'downloadBulkJob',
        summary: 'The results as CSV: one row per competitor, one row with an error per failed domain (free)',
        parameters: [jobId],
        responses: {
          '200': { description: BULK_CSV_COLUMNS.join(','), headers: requestId, content: { 'text/csv': { schema: { type: 'string' } } } },
          ...errors(...keyErrors, 'not_found', 'payload_too_large'),
        },
      },
    },
    '/api/webhook-secret': {
      post: {
        operationId: 'rotateWebhookSecret',
        summary: "Creates or rotates the account's webhook signing secret (shown once)",
        responses: { '201': ok('The new secret.', 'WebhookSecret'), ...errors(...keyErrors) },
      },
    },
  };
}
