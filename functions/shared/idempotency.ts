// composition root: the Idempotency-Key contract of paid POSTs (docs/api.md). Powertools stores the first response for
// 24 hours, scoped to the account; 2xx and 4xx replay as first sent, 429 and 5xx are not kept, so they may be retried.
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { invalidRequest } from '@rivals/core';
import type { Context } from 'aws-lambda';
import { errorBody, toApiError } from './errors.js';
import type { HttpResponse } from './http.js';
import { services } from './container.js';

const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

interface IdempotentCall {
  scope: string;
  payload: unknown;
}

/** What is stored: the body as the JSON text first sent, so that a replay is byte for byte the same. */
interface StoredResponse {
  statusCode: number;
  json: string;
  headers?: Record<string, string>;
}

/** A failure the client may retry is thrown (the record is dropped); any other outcome is a response to keep. */
async function settle(run: () => Promise<HttpResponse>, requestId: string): Promise<StoredResponse> {
  try {
    const response = await run();
    return { statusCode: response.statusCode, json: JSON.stringify(response.body ?? null), ...(response.headers ? { headers: response.headers } : {}) };
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.status >= 500 || apiError.status === 429) throw apiError;
    return { statusCode: apiError.status, json: JSON.stringify(errorBody(apiError, requestId)) };
  }
}

/**
 * Runs `run` once per (account, Idempotency-Key, operation). Without the header it simply runs. A replay carries the
 * header `Idempotent-Replayed: true`.
 */
export async function once(
  operation: string,
  request: { headers: Record<string, string | undefined>; principal: { accountId: string }; requestId: string; context: Context },
  payload: unknown,
  run: () => Promise<HttpResponse>,
): Promise<HttpResponse> {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return run();
  if (!KEY_SHAPE.test(key)) throw invalidRequest('Idempotency-Key must be 1 to 255 visible ASCII characters.', [{ field: 'Idempotency-Key', problem: 'invalid' }]);

  let replayed = true;
  const idempotencyConfig = new IdempotencyConfig({
    eventKeyJmesPath: 'scope',
    payloadValidationJmesPath: 'payload',
    expiresAfterSeconds: IDEMPOTENCY_WINDOW_SECONDS,
    throwOnNoIdempotencyKey: true,
  });
  idempotencyConfig.registerLambdaContext(request.context);
  const execute = makeIdempotent(
    async (_call: IdempotentCall): Promise<StoredResponse> => {
      replayed = false;
      return settle(run, request.requestId);
    },
    { persistenceStore: services().idempotencyStore, config: idempotencyConfig },
  );
  const stored = await execute({ scope: `${request.principal.accountId}#${operation}#${key}`, payload });
  return { statusCode: stored.statusCode, body: JSON.parse(stored.json), headers: { ...stored.headers, ...(replayed ? { 'idempotent-replayed': 'true' } : {}) } };
}
