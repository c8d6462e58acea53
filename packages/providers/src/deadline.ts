// providers (shared): runs one provider call under the caller's signal and the provider's own time budget.
import { ProviderError } from './errors.js';

export const DEFAULT_TIMEOUT_MS = 8_000;

/**
 * Runs `call` with a signal that fires on the caller's abort or after `timeoutMs`.
 * The caller's abort rejects with its own reason (so an abort stays an abort); the budget running out rejects with a
 * ProviderError('timeout'). The result is raced against the signal as well, so a client that ignores the signal cannot
 * hold the search past its budget.
 */
export async function withDeadline<T>(
  provider: string,
  signal: AbortSignal,
  timeoutMs: number,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  signal.throwIfAborted();
  const controller = new AbortController();
  const timedOut = new ProviderError(provider, 'timeout', `no answer within ${timeoutMs} ms`);
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(timedOut), timeoutMs);
  let stop: () => void = () => undefined;
  const stopped = new Promise<never>((_, reject) => {
    stop = () => reject(controller.signal.reason);
    controller.signal.addEventListener('abort', stop, { once: true });
  });
  // The race loser must not surface as an unhandled rejection.
  stopped.catch(() => undefined);
  try {
    return await Promise.race([call(controller.signal), stopped]);
  } catch (error) {
    // Whatever the client threw after an abort (its own AbortError, a socket reset), report why we stopped instead.
    if (signal.aborted) throw signal.reason;
    if (controller.signal.aborted) throw timedOut;
    throw error;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    controller.signal.removeEventListener('abort', stop);
  }
}
