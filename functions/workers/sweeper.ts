// primary adapter: the sweeper, on a schedule (EventBridge in AWS, a timer in the local runtime). Fails and refunds,
// exactly once, every search still running past its deadline because the process that ran it died; and bulk domains
// stuck past theirs (BulkSweeper: refunded and failed once, their jobs' counters updated).
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { bulkSweeper } from '../shared/bulk.js';
import { services } from '../shared/container.js';
import { logger, metrics, traced } from '../shared/observability.js';

export const handler = traced(async () => {
  const report = await services().sweeper.sweep();
  const bulk = await bulkSweeper().sweep();
  metrics.addMetric('SweeperBulkRefunds', MetricUnit.Count, bulk.refunded);
  if (bulk.refunded + bulk.finished + bulk.expired > 0) logger.warn('sweeper settled stuck bulk domains and jobs', { ...bulk });
  metrics.addMetric('SweeperRefunds', MetricUnit.Count, report.refunded);
  metrics.addMetric('SweeperFailures', MetricUnit.Count, report.failed);
  metrics.publishStoredMetrics();
  if (report.overdue > 0) logger.warn('sweeper refunded searches whose process died', { ...report });
  return { ...report, bulk };
});
