// composition root: what a search tells the operator (Powertools Metrics): searches, research time, and refunds by
// reason. The bulk worker records the same figures for its domains.
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { ApiError } from '@rivals/core';
import { metrics } from './observability.js';

function recordSearch(elapsedSeconds: number): void {
  metrics.addMetric('Searches', MetricUnit.Count, 1);
  metrics.addMetric('ResearchTime', MetricUnit.Milliseconds, Math.round(elapsedSeconds * 1000));
}

/** A failed search: counted as a refund under its reason when its credit came back. */
function recordFailedSearch(error: unknown): void {
  if (!(error instanceof ApiError) || error.extra.refunded === undefined) return;
  const refunds = metrics.singleMetric();
  refunds.addDimension('reason', error.code);
  refunds.addMetric(error.extra.refunded ? 'Refunds' : 'RefundsDeferred', MetricUnit.Count, 1);
}

/**
 * A paid research (a search, a look-alike search) answered as the API answers it: 200 with exactly the result, the
 * stored search's id in the X-Search-Id header (GET /api/searches/:id); its research time or its refund recorded.
 */
export async function researchAnswer<R extends { elapsedSeconds: number }>(research: () => Promise<{ searchId: string; result: R }>) {
  try {
    const { searchId, result } = await research();
    recordSearch(result.elapsedSeconds);
    return { statusCode: 200, body: result, headers: { 'x-search-id': searchId } };
  } catch (error) {
    recordFailedSearch(error);
    throw error;
  }
}
