// test helper: the cancellation contract every candidate provider keeps, as `it` cases to register inside a describe.
import { expect, it } from 'vitest';
import { ProviderError, type CandidateProvider, type ProviderTarget } from '@rivals/providers';
import { noAbort, type FakeServer } from './fake-server.js';

export interface CancellationContract {
  /** The provider's name, as its errors carry it ('llm:openai'). */
  name: string;
  /** A provider talking to the fake server, with this budget for one call when given. */
  provider: (timeoutMs?: number) => CandidateProvider;
  /** The fake server, read when a case runs (it is started in a beforeAll and its requests cleared before each test). */
  server: () => FakeServer;
  target: ProviderTarget;
  /** When the caller aborts a call in flight. */
  abortAfterMs?: number;
  /** The provider's own budget in the slow-server case, and the bound within which it must have given up. */
  timeoutMs?: number;
  giveUpWithinMs?: number;
}

/**
 * Registers the cases: an already aborted signal rejects with an AbortError and sends nothing; an abort mid-call rejects
 * with the caller's reason; a server that never answers ends in a ProviderError('timeout') within a bound.
 */
export function itHonoursCancellation({ name, provider, server, target, abortAfterMs = 50, timeoutMs = 150, giveUpWithinMs = 2_000 }: CancellationContract): void {
  it('rejects at once, without calling, when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(provider().propose(target, { limit: 5, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(server().requests).toHaveLength(0);
  });

  it('rejects with the abort reason when the caller aborts mid-call', async () => {
    server().reply = () => ({ hang: true });
    const controller = new AbortController();
    const call = provider().propose(target, { limit: 5, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('search cancelled')), abortAfterMs);
    await expect(call).rejects.toThrow('search cancelled');
  });

  it('gives up on a slow server after its own timeout', async () => {
    server().reply = () => ({ hang: true });
    const started = Date.now();
    const failure = await provider(timeoutMs).propose(target, { limit: 5, signal: noAbort() }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ name: 'ProviderError', provider: name, failure: 'timeout' });
    expect(Date.now() - started).toBeLessThan(giveUpWithinMs);
  });
}
