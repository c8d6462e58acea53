// `npm run bench:load`'s runtime: the local runtime (as `npm start` runs it) in a process of its own, forked by
// scripts/bench-load.ts, so that the load generator does not share its event loop. It counts every DynamoDB call the
// process makes, by operation, at the HTTP handler every AWS SDK client sends through (retries included), and answers
// the bench over IPC: `counts` gives the counts so far, `stop` stops everything and exits. It exits with its parent.
import { readdirSync, readFileSync } from 'node:fs';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { raiseRateLimits, startLocal, tableServices } from '@rivals/local';

type Message = { type: 'counts' } | { type: 'stop' };

const counts: Record<string, number> = {};
const handle = NodeHttpHandler.prototype.handle;
NodeHttpHandler.prototype.handle = function (request, options) {
  const target = request.headers['x-amz-target'] ?? request.headers['X-Amz-Target'];
  if (target?.startsWith('DynamoDB_')) {
    const operation = target.slice(target.indexOf('.') + 1);
    counts[operation] = (counts[operation] ?? 0) + 1;
    if (process.env.BENCH_BYTES) counts[`${operation} bytes`] = (counts[`${operation} bytes`] ?? 0) + Buffer.byteLength(String(request.body ?? ''));
  }
  const answer = handle.call(this, request, options);
  // Failed calls too (a cancelled transaction, a failed condition), by operation and status.
  if (target?.startsWith('DynamoDB_')) {
    const operation = target.slice(target.indexOf('.') + 1);
    void answer.then(({ response }) => {
      if (response.statusCode >= 400) counts[`${operation} failed`] = (counts[`${operation} failed`] ?? 0) + 1;
    }, () => undefined);
  }
  return answer;
};

// The load goes past the documented per-key and per-IP rates: this private instance gets higher limits. The limiter
// still takes its tokens on every request, so its cost stays in what is measured.
raiseRateLimits();
const service = await startLocal({ port: 0, devCredits: Number(process.env.BENCH_CREDITS ?? 1_000_000), log: (line) => console.error(`[local] ${line}`) });
// A second account for the bulk job, so that its searches and the API's are counted in separate accounts.
const { accounts, apiKeys } = tableServices(service.table);
const bulkAccount = await accounts.open('Bench bulk', Number(process.env.BENCH_CREDITS ?? 1_000_000), 'acct_bench_bulk');
const bulkKey = await apiKeys.issue(bulkAccount.id, 'bench');

let stopping = false;
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  await service.stop().catch(() => undefined);
  process.exit(code);
};
/**
 * CPU time so far, in ms: this process (the front, the handlers, the workers) and DynamoDB Local's java, read from
 * /proc (Linux; null elsewhere). On a machine shared with other work, CPU per request is steadier than requests/s.
 */
const dynamoPort = new URL(service.endpoints.dynamodb).port;
const javaPid = (() => {
  try {
    const commandOf = (pid: string) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      } catch {
        return ''; // gone meanwhile
      }
    };
    return readdirSync('/proc').find((pid) => /^\d+$/.test(pid) && commandOf(pid).includes(`-port ${dynamoPort} `));
  } catch {
    return undefined; // no /proc
  }
})();
const cpu = () => {
  const usage = process.cpuUsage();
  let dynamoMs: number | null = null;
  try {
    // utime and stime, fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 a second on Linux).
    const fields = readFileSync(`/proc/${javaPid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    dynamoMs = (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    // not Linux, or not found
  }
  return { runtimeMs: (usage.user + usage.system) / 1000, dynamoMs };
};

process.on('message', (message: Message) => {
  if (message.type === 'counts') process.send!({ type: 'counts', counts: { ...counts }, cpu: cpu() });
  if (message.type === 'stop') void stop();
});
process.on('disconnect', () => void stop());
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(130));
process.send!({ type: 'ready', url: service.url, apiKey: service.apiKey, bulkApiKey: bulkKey.key });
