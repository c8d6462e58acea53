// local runtime: resuming after a restart. local-aws-sqs keeps its queues in memory, so a runtime that was killed
// (kill -9, a crash, a power cut) loses every message it had; its DATA_DIR keeps the table, which is the source of truth.
// At start, before the workers poll, the queues are rebuilt from it: every unfinished domain of a live job (a domain left
// running by the dead process is released first), every owed webhook of an ended job and every pending aggregation is
// sent again; a presigned job whose file landed while nothing listened is started. See Redriver.resume().
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ResumeReport } from '@rivals/core';
import { WORKERS } from '../../../infra/routes.js';

export async function resumeQueuedWork(projectRoot: string, log: (line: string) => void): Promise<ResumeReport> {
  // The same module instances the worker handlers load (functions/shared/bulk.ts), on the environment set for them.
  const bulk = (await import(pathToFileURL(join(projectRoot, 'functions/shared/bulk.ts')).href)) as typeof import('../../../functions/shared/bulk.js');
  const report = await bulk.redriver().resume();
  if (report.awaitingUploads.length) {
    const { handler } = (await import(pathToFileURL(join(projectRoot, WORKERS.uploadLanded.entry)).href)) as { handler: (event: unknown) => Promise<void> };
    for (const key of report.awaitingUploads) await handler({ Records: [{ eventName: 'ObjectCreated:Put', s3: { object: { key } } }] });
  }
  const resumed = report.domains + report.webhooks + report.aggregations;
  if (resumed > 0)
    log(`Resumed work the last run left queued: ${report.domains} bulk domain(s) (${report.released} were running when it stopped), ${report.webhooks} webhook(s), ${report.aggregations} aggregation(s).`);
  return report;
}
