// primary adapter: the monitor's schedule (EventBridge hourly in AWS, a timer in the local runtime). Starts a run when
// the knowledge base's version changed since the last run (a deploy) or when MONITOR_EVERY_HOURS passed, and sends
// every watched company to the monitor queue; a tick with nothing due reads one item. `{ "run": "now" }` starts a run
// at once (the operator command invokes it so).
import { logger, traced } from '../shared/observability.js';
import { monitorChecks } from '../shared/research.js';

export const handler = traced(async (event?: { run?: string }) => {
  const run = event?.run === 'now' ? await monitorChecks().startRun('manual') : await monitorChecks().tick();
  if (run) logger.info('monitor run started', { runId: run.id, reason: run.reason, total: run.total ?? 0 });
  return run;
});
