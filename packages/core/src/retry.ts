// core: retrying an operation that must not be given up lightly (a refund), within a time budget.

export interface RetryOptions {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Delay before the second attempt; each later delay doubles, with full jitter. */
  baseDelayMs: number;
  /** No new attempt starts once this much time has passed since the first. */
  budgetMs: number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `operation` until it succeeds, the attempts are spent or the budget is; then throws its last error. */
export async function withRetries<T>(operation: () => Promise<T>, options: RetryOptions): Promise<T> {
  const sleep = options.sleep ?? defaultSleep;
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      const delay = Math.random() * options.baseDelayMs * 2 ** (attempt - 1);
      if (attempt >= options.attempts || Date.now() - started + delay >= options.budgetMs) throw error;
      await sleep(delay);
    }
  }
}
