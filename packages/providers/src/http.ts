// providers (shared): one HTTP exchange with a provider's API, its failures turned into ProviderErrors.
import { messageOf, ProviderError } from './errors.js';

/** Longest slice of an error body kept in the message: enough for the API's reason, not a whole HTML page. */
const ERROR_BODY_CHARS = 200;

/**
 * The response body of a successful call. Rejects with ProviderError('http') on a non-2xx status and
 * ProviderError('network') when the exchange fails; after an abort it rethrows as is, for withDeadline to explain.
 */
export async function fetchText(provider: string, url: string, init: RequestInit & { signal: AbortSignal }): Promise<string> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, init);
    text = await response.text();
  } catch (error) {
    if (init.signal.aborted) throw error;
    throw new ProviderError(provider, 'network', `request failed: ${messageOf(error)}`, undefined, { cause: error });
  }
  if (!response.ok) {
    throw new ProviderError(provider, 'http', `HTTP ${response.status}: ${text.slice(0, ERROR_BODY_CHARS)}`, response.status);
  }
  return text;
}
