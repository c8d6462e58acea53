// primary adapter: the sweeper, on a schedule (EventBridge in AWS, a timer in the local runtime). Fails and refunds,
// exactly once, every search still running past its deadline because the process that ran it died; and re-drives lost
// or dead-lettered work (BulkSweeper, redrive.ts): bulk domains, owed webhooks and aggregations with no sign of life
// are sent again, with backoff, a bounded number of times, and only then failed and refunded (or abandoned).
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { bulkSweeper } from '../shared/bulk.js';
import { services } from '../shared/container.js';
import { logger, metrics, traced } from '../shared/observability.js';

export const handler = traced(async () => {
  const report = await services().sweeper.sweep();
  const bulk = await bulkSweeper().sweep();
  metrics.addMetric('SweeperBulkRefunds', MetricUnit.Count, bulk.refunded);
  const redriven = bulk.redriven.domains + bulk.redriven.webhooks + bulk.redriven.aggregations;
  metrics.addMetric('SweeperRedrives', MetricUnit.Count, redriven);
  if (bulk.refunded + bulk.finished + bulk.expired + redriven + bulk.deadLetters + bulk.abandonedWebhooks > 0) logger.warn('sweeper re-drove or settled stuck bulk work', { ...bulk });
  metrics.addMetric('SweeperRefunds', MetricUnit.Count, report.refunded);
  metrics.addMetric('SweeperFailures', MetricUnit.Count, report.failed);
  metrics.publishStoredMetrics();
  if (report.overdue > 0) logger.warn('sweeper refunded searches whose process died', { ...report });
  return { ...report, bulk };
});
