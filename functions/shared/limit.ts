// composition root: at most `n` calls of an async function at a time (the bulk worker's bounded concurrency).
export function limited<A extends unknown[], R>(n: number, fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (...args: A) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await fn(...args);
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
