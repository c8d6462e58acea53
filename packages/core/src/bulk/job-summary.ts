// core: a bulk job as the API shows it (lists, the job read, the webhook event).
import type { BulkJobSummary } from '@rivals/contracts';
import type { BulkJobRecord } from './ports.js';

/** The job as listed and as sent in the webhook. */
export function jobSummary(job: BulkJobRecord): BulkJobSummary {
  return {
    jobId: job.id,
    status: job.status,
    totalDomains: job.totalDomains,
    completedDomains: job.completedDomains,
    failedDomains: job.failedDomains,
    cancelledDomains: job.cancelledDomains,
    creditsReserved: job.creditsReserved,
    creditsCharged: job.creditsCharged,
    creditsRefunded: job.creditsRefunded,
    limit: job.limit,
    filters: job.filters ?? null,
    filename: job.filename,
    error: job.error,
    webhookUrl: job.webhookUrl,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    finishedAt: job.finishedAt,
  };
}

