// worker (primary adapter): scheduled. Refunds and fails bulk domains stuck past their deadline, ends jobs whose last
// outcome was not yet counted, expires upload URLs never used.
import { logger } from '../shared/observability.js';
import { bulkWorker } from '../shared/research.js';

export const handler = async (): Promise<void> => {
  const totals = await bulkWorker().sweep();
  logger.info('bulk sweep', totals);
};
