// sdk-node: the one HTTP path of the SDK: base URL and key, per-call timeout and AbortSignal, typed errors, and
// retries with exponential backoff and full jitter on 429, 5xx and lost connections, honouring Retry-After.
import { codeForStatus, errorClassFor, RivalsConnectionError, RivalsError, RivalsTimeoutError } from './errors.js';

export const SDK_VERSION = '0.1.0';
export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

export interface ClientOptions {
  /** The API's origin, e.g. https://d1234.cloudfront.net; default RIVALS_BASE_URL, else http://127.0.0.1:3000. */
  baseUrl?: string;
  /** `sk-live-...`; default RIVALS_API_KEY. */
  apiKey?: string;
  /** Per-attempt timeout in milliseconds; default 60 s (a search may take 25 s). */
  timeoutMs?: number;
  /** Retries after the first attempt; default 3. */
  maxRetries?: number;
  /** First backoff step in milliseconds (doubled each retry, full jitter); default 500. */
  retryBaseDelayMs?: number;
  /** Longest wait between attempts, Retry-After included; default 30 s. */
  maxRetryDelayMs?: number;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

/** What any call may add. */
export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  /** Sent as Idempotency-Key; paid calls generate one when none is given. */
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

export interface HttpRequest extends RequestOptions {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';
  path: string;
  query?: Record<string, string | number | undefined | null>;
  json?: unknown;
  body?: string | Uint8Array;
  contentType?: string;
  /** False for the keyless routes. */
  auth?: boolean;
  /** The call may be repeated safely after a 5xx or a lost connection (GET, DELETE, and keyed or upsert POSTs). */
  idempotent?: boolean;
  /** Absolute URL (a presigned upload): no base URL, no key. */
  url?: string;
}

export interface HttpResponse<T> {
  status: number;
  headers: Headers;
  data: T;
  requestId: string | null;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Seconds of a Retry-After header: a number of seconds or an HTTP date. */
export const parseRetryAfter = (value: string | null, now = Date.now()): number | null => {
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, (at - now) / 1000);
};

export class Transport {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  private readonly options: Required<Pick<ClientOptions, 'timeoutMs' | 'maxRetries' | 'retryBaseDelayMs' | 'maxRetryDelayMs'>>;
  private readonly fetchImpl: typeof fetch;
  private readonly headers: Record<string, string>;

  constructor(options: ClientOptions = {}) {
    // No `process` in a browser: the options are all there is.
    const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
    this.baseUrl = (options.baseUrl ?? env.RIVALS_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.apiKey = options.apiKey ?? (env.RIVALS_API_KEY || undefined);
    this.options = {
      timeoutMs: options.timeoutMs ?? 60_000,
      maxRetries: options.maxRetries ?? 3,
      retryBaseDelayMs: options.retryBaseDelayMs ?? 500,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
    };
    // Called through a wrapper: a browser's fetch called as another object's method throws "Illegal invocation".
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.headers = options.headers ?? {};
  }

  url(path: string, query?: HttpRequest['query']): string {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
    return url.toString();
  }

  /** Backoff before retry `attempt` (1-based): full jitter over base * 2^(attempt-1), at least Retry-After. */
  delayMs(attempt: number, retryAfterSeconds: number | null): number {
    const ceiling = Math.min(this.options.maxRetryDelayMs, this.options.retryBaseDelayMs * 2 ** (attempt - 1));
    const jittered = Math.random() * ceiling;
    if (retryAfterSeconds === null) return jittered;
    // Retry-After is the server's word: wait that long, plus a little jitter so that clients do not arrive together.
    return Math.min(this.options.maxRetryDelayMs, retryAfterSeconds * 1000 + Math.random() * Math.min(250, ceiling));
  }

  async request<T>(request: HttpRequest): Promise<HttpResponse<T>> {
    const maxRetries = request.maxRetries ?? this.options.maxRetries;
    const retryable = request.idempotent ?? (request.method !== 'POST' || request.idempotencyKey !== undefined);
    for (let attempt = 0; ; attempt++) {
      let error: RivalsError;
      try {
        return await this.once<T>(request);
      } catch (caught) {
        if (!(caught instanceof RivalsError)) throw caught;
        error = caught;
      }
      const status = error.status;
      const shouldRetry =
        attempt < maxRetries &&
        (status === 429 ||
          (status === 409 && error.code === 'idempotency_in_progress') ||
          (retryable && ((status !== null && status >= 500) || error instanceof RivalsConnectionError)));
      if (!shouldRetry) throw error;
      await sleep(this.delayMs(attempt + 1, error.retryAfterSeconds), request.signal);
    }
  }

  private async once<T>(request: HttpRequest): Promise<HttpResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `rivals-node/${SDK_VERSION}`, ...this.headers, ...request.headers };
    if (!request.url && request.auth !== false) {
      if (!this.apiKey) throw new RivalsError({ code: 'missing_api_key', status: null, message: 'No API key: pass apiKey or set RIVALS_API_KEY.' });
      headers['x-api-key'] = this.apiKey;
    }
    if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
    let body: string | Uint8Array | undefined = request.body;
    if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers['content-type'] = 'application/json';
    } else if (request.contentType) headers['content-type'] = request.contentType;
    if (request.url) delete headers['user-agent'];

    const timeout = AbortSignal.timeout(request.timeoutMs ?? this.options.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await this.fetchImpl(request.url ?? this.url(request.path, request.query), { method: request.method, headers, body: body as RequestInit['body'], signal });
    } catch (error) {
      throw this.noAnswer(error, request.signal);
    }
    const requestId = response.headers.get('x-request-id');
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw this.noAnswer(error, request.signal);
    }
    if (response.ok) {
      const isJson = (response.headers.get('content-type') ?? '').includes('json');
      return { status: response.status, headers: response.headers, requestId, data: (isJson && text ? JSON.parse(text) : text) as T };
    }
    throw apiError(response.status, response.headers, text, requestId);
  }

  private noAnswer(error: unknown, callerSignal?: AbortSignal): Error {
    if (callerSignal?.aborted) return callerSignal.reason instanceof Error ? callerSignal.reason : new DOMException('The operation was aborted.', 'AbortError');
    if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError'))
      return new RivalsTimeoutError({ code: 'timeout', message: 'The API did not answer in time.', cause: error });
    return new RivalsConnectionError({ code: 'connection_error', message: `Could not reach the API: ${(error as Error)?.message ?? error}`, cause: error });
  }
}

/** The typed error of a non-2xx answer: the API's error body when it has one, else the status's default code. */
export const apiError = (status: number, headers: Headers, text: string, requestId: string | null): RivalsError => {
  let error: Record<string, unknown> | null = null;
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (parsed && typeof parsed.error === 'object' && parsed.error !== null) error = parsed.error as Record<string, unknown>;
  } catch {
    // not JSON: a proxy's or S3's page
  }
  const retryAfter = parseRetryAfter(headers.get('retry-after')) ?? (typeof error?.retryAfterSeconds === 'number' ? error.retryAfterSeconds : null);
  const code = typeof error?.code === 'string' ? error.code : codeForStatus(status);
  const ErrorClass = errorClassFor(status, code);
  return new ErrorClass({
    code,
    message: typeof error?.message === 'string' ? error.message : `HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ''}`,
    status,
    requestId: typeof error?.requestId === 'string' ? error.requestId : requestId,
    details: Array.isArray(error?.details) ? (error.details as RivalsError['details']) : [],
    retryAfterSeconds: retryAfter,
    body: error,
  });
};
