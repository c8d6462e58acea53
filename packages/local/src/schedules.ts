// local runtime: the scheduled functions of the CDK app (infra/routes.ts SCHEDULED), run by a timer instead of
// EventBridge: the same handler files, one run at a time each.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SCHEDULED, type ScheduledSpec } from '../../../infra/routes.js';

export interface ScheduleOptions {
  projectRoot: string;
  /** Seconds between runs locally; AWS runs them every `everyMinutes`. */
  everySeconds?: number;
  jobs?: ScheduledSpec[];
  log?: (line: string) => void;
}

export function startSchedules(options: ScheduleOptions): { stop(): Promise<void> } {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<unknown>>();
  for (const job of options.jobs ?? SCHEDULED) {
    let busy = false;
    const tick = () => {
      if (busy) return;
      busy = true;
      const run = import(pathToFileURL(join(options.projectRoot, job.entry)).href)
        .then((module: { handler: () => Promise<unknown> }) => module.handler())
        .catch((error: Error) => options.log?.(`${job.id} failed: ${error.message}`))
        .finally(() => {
          busy = false;
          running.delete(run);
        });
      running.add(run);
    };
    const timer = setInterval(tick, (options.everySeconds ?? job.everyMinutes * 60) * 1000);
    timer.unref();
    timers.push(timer);
  }
  return {
    stop: async () => {
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...running]);
    },
  };
}
