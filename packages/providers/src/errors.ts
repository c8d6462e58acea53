// providers (shared): the one error type providers reject with, other than an abort from the caller.

export type ProviderFailure = 'timeout' | 'http' | 'network';

export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    readonly provider: string,
    readonly failure: ProviderFailure,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(`${provider}: ${message}`, options);
  }
}

/** An error's message with its cause's, which is where fetch and the SDK put the useful part ("ECONNREFUSED"). */
export function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
