// primary adapter: the sweeper, on a schedule (EventBridge in AWS, a timer in the local runtime). Fails and refunds,
// exactly once, every search still running past its deadline because the process that ran it died.
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { services } from '../shared/container.js';
import { logger, metrics } from '../shared/observability.js';

export const handler = async () => {
  const report = await services().sweeper.sweep();
  metrics.addMetric('SweeperRefunds', MetricUnit.Count, report.refunded);
  metrics.addMetric('SweeperFailures', MetricUnit.Count, report.failed);
  metrics.publishStoredMetrics();
  if (report.overdue > 0) logger.warn('sweeper refunded searches whose process died', { ...report });
  return report;
};
