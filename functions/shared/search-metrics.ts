// composition root: what a search tells the operator (Powertools Metrics): searches, research time, and refunds by
// reason. The bulk worker records the same figures for its domains.
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { ApiError } from '@rivals/core';
import { metrics } from './observability.js';

export function recordSearch(elapsedSeconds: number): void {
  metrics.addMetric('Searches', MetricUnit.Count, 1);
  metrics.addMetric('ResearchTime', MetricUnit.Milliseconds, Math.round(elapsedSeconds * 1000));
}

/** A failed search: counted as a refund under its reason when its credit came back. */
export function recordFailedSearch(error: unknown): void {
  if (!(error instanceof ApiError) || error.extra.refunded === undefined) return;
  const refunds = metrics.singleMetric();
  refunds.addDimension('reason', error.code);
  refunds.addMetric(error.extra.refunded ? 'Refunds' : 'RefundsDeferred', MetricUnit.Count, 1);
}
