// cli: the `rivals` commands (commander). `run(argv, io)` runs one command line and returns its exit code, so the
// bin and the tests share every path.
import { basename } from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { SingleBar } from 'cli-progress';
import { COMPANY_SIZES, COMPETITOR_TYPES, OWNERSHIPS, type LookalikesRequest, type RejectedRow, type SearchFilters, type SearchRequest } from '@rivals/contracts';
import { Rivals, RivalsError, type BulkProgress, type ClientOptions } from '@rivals/sdk';
import { configPath, loadConfig, removeConfig, saveConfig } from './config.js';
import { EXIT, EXIT_CODES_HELP, exitCodeFor } from './exit-codes.js';
import { csv, styleFor, table, type Cell } from './format.js';

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  env?: NodeJS.ProcessEnv;
  /** A client factory (tests). */
  client?: (options: ClientOptions) => Rivals;
}

const int = (name: string, min: number, max: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}.`);
  return n;
};
const list = (value: string, previous: string[] = []) => [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)];
/** `--types direct,INDIRECT`: the types in any case, spelled as the API spells them. */
const typeList = (value: string, previous: string[] = []) =>
  list(value, []).reduce((types, given) => {
    const type = COMPETITOR_TYPES.find((t) => t.toLowerCase() === given.toLowerCase());
    if (!type) throw new InvalidArgumentError(`"${given}" is not a type; use ${COMPETITOR_TYPES.join(', ')} (any case).`);
    return [...types, type];
  }, previous);

/** A usage or local-file problem: exit 1 with this message, before any request. */
const usageError = (message: string) => new CommanderError(EXIT.usage, 'rivals.usage', message);

/** A local file's bytes, or a usage error that names the file and says what is wrong with it. */
async function readLocalFile(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw usageError(`cannot read ${path}: ${fileProblem(error)}`);
  }
}
const fileProblem = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return (error as Error)?.message ?? String(error);
};

/**
 * Reads a secret from the terminal without echoing it: readline echoes what is typed to its output, here a sink.
 * Off a terminal (a pipe: `echo $KEY | rivals login`) the line is read as it comes.
 */
async function readSecret(stdin: NodeJS.ReadableStream & { isTTY?: boolean }, prompt: NodeJS.WritableStream, label: string): Promise<string> {
  const terminal = Boolean(stdin.isTTY);
  if (terminal) prompt.write(label);
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: stdin, output: muted, terminal });
  try {
    return (await rl.question('')).trim();
  } finally {
    rl.close();
    if (terminal) prompt.write('\n');
  }
}

/** Rejected rows, said plainly: what was in the file, on which line, and why it was not researched (nor charged). */
const rejectedLines = (rows: RejectedRow[]): string[] =>
  rows.length ? [`${rows.length} row${rows.length === 1 ? '' : 's'} rejected (not charged):`, ...rows.map((r) => `  line ${r.row}: ${JSON.stringify(r.value)}: ${r.reason}`)] : [];

/** The first `max` items of a paged list. */
async function collect<T>(items: AsyncIterable<T>, max = Infinity): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) {
    all.push(item);
    if (all.length >= max) break;
  }
  return all;
}

const EXAMPLES = `
Examples:
  $ rivals login                              # store your key (sk-live-...) in your config directory
  $ rivals search stripe.com                  # 1 credit: a table of competitors
  $ rivals search stripe.com --limit 10 --types Direct,Indirect --min-score 60 --json
  $ rivals search https://www.notion.so --exclude coda.io --countries US,GB --csv > notion.csv
  $ rivals balance
  $ rivals history --limit 20
  $ rivals lookalikes a.com b.com c.com --founded-from 2015 --ownership private --sizes 11-50,51-200
  $ rivals show srch_01j...                   # a past search with the evidence, free
  $ rivals bulk upload domains.csv --wait -o results.csv
  $ rivals bulk status job_01j...
  $ rivals saved add linear.app --note "watch pricing"
  $ rivals changes --domain linear.app --since 2026-11-01
  $ rivals share srch_01j...
  $ rivals keys create --name ci

Configuration:
  --api-key, else RIVALS_API_KEY, else the key stored by \`rivals login\`.
  --base-url, else RIVALS_BASE_URL, else the stored one, else http://127.0.0.1:3000 (the local runtime).
  A deployed stack: --base-url https://<your CloudFront or API Gateway domain>.

${EXIT_CODES_HELP}
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const env = io.env ?? process.env;
  const out = (line = ''): void => void io.stdout.write(`${line}\n`);
  const style = styleFor(io.stdout, env);
  const errStyle = styleFor(io.stderr, env);
  let exitCode: number = EXIT.ok;

  const program = new Command('rivals')
    .description('Competitor research from the command line: rivals of a company, bulk CSV jobs, your history and keys.')
    .version('0.1.0')
    .option('--api-key <key>', 'API key (default: RIVALS_API_KEY, then the stored login)')
    .option('--base-url <url>', 'API origin (default: RIVALS_BASE_URL, then the stored one, then http://127.0.0.1:3000)')
    .option('--timeout <seconds>', 'per-request timeout in seconds', int('--timeout', 1, 3600))
    .addHelpText('after', EXAMPLES)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s), outputError: (s, write) => write(errStyle.red(s)) })
    .showHelpAfterError('(run rivals --help for usage)');

  const client = async (): Promise<Rivals> => {
    const globals = program.opts<{ apiKey?: string; baseUrl?: string; timeout?: number }>();
    const stored = await loadConfig(env);
    const options: ClientOptions = {
      apiKey: globals.apiKey ?? (env.RIVALS_API_KEY || stored.apiKey),
      baseUrl: globals.baseUrl ?? (env.RIVALS_BASE_URL || stored.baseUrl),
      timeoutMs: globals.timeout ? globals.timeout * 1000 : undefined,
    };
    if (!options.apiKey) throw new CommanderError(EXIT.auth, 'rivals.auth', 'No API key: run `rivals login` to store one, or set RIVALS_API_KEY, or pass --api-key.');
    return io.client ? io.client(options) : new Rivals(options);
  };
  const emit = (json: boolean, value: unknown, render: () => string): void => out(json ? JSON.stringify(value, null, 2) : render());

  program
    .command('login')
    .description('check an API key and store it (mode 0600) in your config directory')
    .option('--key <key>', 'the key (default: asked for without echo on a terminal, else read from stdin)')
    .action(async (options: { key?: string }) => {
      let key = options.key ?? program.opts().apiKey;
      if (!key) key = await readSecret(io.stdin ?? process.stdin, io.stderr, 'API key (sk-live-..., not shown as you type): ');
      if (!key) throw usageError('No key given.');
      const baseUrl = program.opts().baseUrl ?? (env.RIVALS_BASE_URL || undefined);
      const rivals = io.client ? io.client({ apiKey: key, baseUrl }) : new Rivals({ apiKey: key, baseUrl });
      const { creditsRemaining } = await rivals.balance();
      const path = await saveConfig({ apiKey: key, ...(baseUrl ? { baseUrl } : {}) }, env);
      out(`Logged in; ${creditsRemaining} credits left. Key stored in ${path}`);
    });

  program
    .command('logout')
    .description('forget the stored key')
    .action(async () => {
      await removeConfig(env);
      out(`Removed ${configPath(env)}`);
    });

  type FilterOptions = {
    exclude?: string[]; types?: string[]; minScore?: number; countries?: string[];
    sizes?: string[]; foundedFrom?: number; foundedTo?: number; ownership?: string[];
  };
  const withFilters = (command: Command) =>
    command
      .option('--exclude <domains>', 'comma-separated domains never to return (repeatable)', list)
      .addOption(new Option('--types <types>', `only these types: ${COMPETITOR_TYPES.join(',')} (any case)`).argParser(typeList))
      .option('--min-score <n>', 'only competitors scoring at least n (0..100)', int('--min-score', 0, 100))
      .option('--countries <codes>', 'only competitors headquartered in these ISO countries, e.g. US,DE', list)
      .option('--sizes <bands>', `only these size bands: ${COMPANY_SIZES.join(',')}`, list)
      .option('--founded-from <year>', 'only companies founded in or after this year', int('--founded-from', 1000, 2100))
      .option('--founded-to <year>', 'only companies founded in or before this year', int('--founded-to', 1000, 2100))
      .option('--ownership <kinds>', `only these ownerships: ${OWNERSHIPS.join(',')}`, list);
  const filtersOf = (options: FilterOptions): SearchFilters => ({
    ...(options.exclude ? { exclude: options.exclude } : {}),
    ...(options.types ? { types: options.types as SearchFilters['types'] } : {}),
    ...(options.minScore !== undefined ? { minMatchScore: options.minScore } : {}),
    ...(options.countries ? { countries: options.countries } : {}),
    ...(options.sizes ? { sizes: options.sizes as SearchFilters['sizes'] } : {}),
    ...(options.foundedFrom !== undefined ? { foundedFrom: options.foundedFrom } : {}),
    ...(options.foundedTo !== undefined ? { foundedTo: options.foundedTo } : {}),
    ...(options.ownership ? { ownership: options.ownership as SearchFilters['ownership'] } : {}),
  });

  withFilters(
    program
      .command('search')
    .description('research the competitors of a domain (1 credit; refunded if nothing is found)')
    .argument('<domain>', 'a domain or URL, e.g. stripe.com')
      .option('-n, --limit <n>', 'competitors to return, 1..100', int('--limit', 1, 100)),
  )
    .addOption(new Option('--json', 'print the JSON result').conflicts('csv'))
    .option('--csv', 'print CSV')
    .action(async (domain: string, options: FilterOptions & { limit?: number; json?: boolean; csv?: boolean }) => {
      const request: SearchRequest = { domain, ...filtersOf(options) };
      if (options.limit !== undefined) request.limit = options.limit;
      const result = await (await client()).search(request);
      const headers = ['rank', 'company', 'domain', 'matchScore', 'type', 'confidence', 'likelyCompetitor'];
      const rows: Cell[][] = result.competitors.map((c) => [c.rank, c.company, c.domain, c.matchScore, c.type, c.confidence, c.likelyCompetitor]);
      if (options.csv) return out(csv(headers, rows));
      emit(Boolean(options.json), result, () =>
        [
          table(['#', 'company', 'domain', 'score', 'type', 'confidence', 'likely'], rows.map((r) => [...r.slice(0, 6), r[6] ? 'yes' : '']), style),
          style.dim(`${result.domain}: ${result.totalCompetitors} competitors (${result.likelyCompetitors} likely) in ${result.elapsedSeconds}s; ${result.creditsRemaining} credits left; search ${result.searchId ?? '-'}`),
        ].join('\n'),
      );
    });

  withFilters(
    program
      .command('lookalikes')
      .description('companies like several seed companies at once, e.g. your best customers (1 credit; refunded if nothing is found)')
      .argument('<domains...>', '1 to 20 seed domains or URLs')
      .option('-n, --limit <n>', 'companies to return, 1..100', int('--limit', 1, 100)),
  )
    .option('--json', 'print the JSON result')
    .option('--csv', 'print CSV')
    .action(async (domains: string[], options: FilterOptions & { limit?: number; json?: boolean; csv?: boolean }) => {
      const request: LookalikesRequest = { domains, ...filtersOf(options) };
      if (options.limit !== undefined) request.limit = options.limit;
      const result = await (await client()).lookalikes(request);
      const headers = ['rank', 'company', 'domain', 'matchScore', 'type', 'confidence', 'likelyCompetitor', 'similarTo'];
      const rows: Cell[][] = result.companies.map((c) => [c.rank, c.company, c.domain, c.matchScore, c.type, c.confidence, c.likelyCompetitor, c.similarTo.join('; ')]);
      if (options.csv) return out(csv(headers, rows));
      emit(Boolean(options.json), result, () =>
        [
          table(['#', 'company', 'domain', 'score', 'type', 'confidence', 'similar to'], rows.map((r) => [...r.slice(0, 6), r[7]]), style),
          style.dim(`${result.domains.join(', ')}: ${result.totalCompanies} look-alikes in ${result.elapsedSeconds}s; ${result.creditsRemaining} credits left; search ${result.searchId ?? '-'}`),
        ].join('\n'),
      );
    });

  program
    .command('balance')
    .description('credits left (free)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const balance = await (await client()).balance();
      emit(Boolean(options.json), balance, () => `${balance.creditsRemaining} credits`);
    });

  program
    .command('history')
    .description('your past searches, newest first (free)')
    .option('-n, --limit <n>', 'how many (default 50)', int('--limit', 1, 100_000))
    .addOption(new Option('--source <source>', 'only searches from').choices(['api', 'bulk']))
    .addOption(new Option('--status <status>', 'only searches that are').choices(['running', 'succeeded', 'failed']))
    .option('--json', 'print JSON')
    .action(async (options: { limit?: number; source?: 'api' | 'bulk'; status?: 'running' | 'succeeded' | 'failed'; json?: boolean }) => {
      const wanted = options.limit ?? 50;
      const rivals = await client();
      const items = await collect(rivals.history.iterate({ limit: Math.min(wanted, 200), source: options.source, status: options.status }), wanted);
      emit(Boolean(options.json), items, () =>
        table(['id', 'domain', 'status', 'createdAt', 'competitors', 'likely', 'source'], items.map((s) => [s.id, s.domain, s.status, s.createdAt, s.totalCompetitors, s.likelyCompetitors, s.jobId ? `bulk ${s.jobId}` : s.source]), style),
      );
    });

  program
    .command('show')
    .description('a past search with the evidence behind each competitor (free)')
    .argument('<searchId>', 'the search\'s id (srch_...), from `rivals history`')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const search = await (await client()).searches.get(id);
      emit(Boolean(options.json), search, () =>
        [
          style.bold(`${search.domain}  ${search.status}  ${search.createdAt}  ${search.totalCompetitors} competitors (${search.likelyCompetitors} likely)${search.error ? `  error: ${search.error}` : ''}`),
          search.reason ? style.dim(`why nothing was found: ${search.reason}`) : '',
          table(
            ['#', 'company', 'domain', 'score', 'type', 'hq', 'size', 'why'],
            search.competitors.map((c) => [c.rank, c.evidence.parentCompany ? `${c.company} (${c.evidence.parentCompany})` : c.company, c.domain, c.matchScore, c.type, c.evidence.headquarters, c.evidence.size, c.evidence.signals.slice(0, 2).join('; ')]),
            style,
          ),
        ]
          .filter(Boolean)
          .join('\n'),
      );
    });

  const bulk = program.command('bulk').description('bulk CSV jobs (1 credit a domain with results)');
  const progressBar = (wait: boolean) => {
    if (!wait) return { update: () => {}, stop: () => {} };
    const bar = new SingleBar(
      { format: 'bulk {jobId} [{bar}] {percentage}% | {value}/{total} domains | {status}', stream: io.stderr as NodeJS.WritableStream & { isTTY: boolean }, noTTYOutput: false, hideCursor: Boolean(io.stderr.isTTY) },
    );
    let started = false;
    return {
      update: (p: BulkProgress) => {
        const done = p.completedDomains + p.failedDomains;
        if (!started && io.stderr.isTTY) bar.start(p.totalDomains || 1, done, { jobId: p.jobId, status: p.status });
        started = true;
        if (io.stderr.isTTY) {
          bar.setTotal(p.totalDomains || 1);
          bar.update(done, { status: p.status });
        } else io.stderr.write(`bulk ${p.jobId}: ${p.status} ${done}/${p.totalDomains}\n`);
      },
      stop: () => io.stderr.isTTY && started && bar.stop(),
    };
  };
  const writeCsv = async (content: string, output?: string, saved = ''): Promise<void> => {
    if (output) {
      try {
        await writeFile(output, content);
      } catch (error) {
        throw usageError(`cannot write ${output}: ${fileProblem(error)}${saved}`);
      }
    } else io.stdout.write(content.endsWith('\n') ? content : `${content}\n`);
  };

  withFilters(
    bulk
      .command('upload')
      .description('upload a CSV of domains (direct up to 5 MB, presigned above); prints the job id')
      .argument('<file>', 'a CSV of domains: one a line, or a column named domain, website or url')
      .option('-n, --limit <n>', 'competitors per domain, 1..100', int('--limit', 1, 100)),
  )
    .option('--webhook-url <url>', 'https URL told when the job ends')
    .option('--wait', 'wait with a progress bar, then print (or -o save) the results CSV')
    .option('-o, --output <file>', 'with --wait: write the results CSV here')
    .option('--poll <seconds>', 'with --wait: seconds between polls', int('--poll', 1, 3600), 2)
    .option('--json', 'print JSON')
    .action(async (file: string, options: FilterOptions & { limit?: number; webhookUrl?: string; wait?: boolean; output?: string; poll: number; json?: boolean }) => {
      // The file first: a missing or unreadable file is the caller's to fix, and costs nothing.
      const content = await readLocalFile(file);
      const rivals = await client();
      const jobOptions = { limit: options.limit, webhookUrl: options.webhookUrl, filename: basename(file), ...filtersOf(options) };
      const bar = progressBar(Boolean(options.wait));
      if (!options.wait) {
        const accepted = await rivals.bulk.upload(content, jobOptions);
        return emit(Boolean(options.json), accepted, () =>
          [`job ${accepted.jobId}: ${accepted.status}, ${accepted.totalDomains} domains, ${accepted.creditsReserved} credits reserved, ${accepted.creditsRemaining} left`, ...rejectedLines(accepted.rejectedRows)].join('\n'),
        );
      }
      try {
        const { job, csv: results } = await rivals.bulk.run(content, { ...jobOptions, pollIntervalMs: options.poll * 1000, onProgress: (p) => bar.update(p) });
        bar.stop();
        if (options.json) return emit(true, job, () => '');
        io.stderr.write(`job ${job.jobId}: ${job.status}, ${job.completedDomains} done, ${job.failedDomains} failed, ${job.creditsCharged} credits charged, ${job.creditsRefunded} refunded\n`);
        for (const line of rejectedLines(job.rejectedRows)) io.stderr.write(`${line}\n`);
        if (results !== null) await writeCsv(results, options.output, `; the results stay available: rivals bulk download ${job.jobId}`);
      } finally {
        bar.stop();
      }
    });

  bulk
    .command('status')
    .description('a job\'s progress and results (free)')
    .argument('<jobId>', 'the job\'s id (job_...), from `rivals bulk list`')
    .option('--json', 'print JSON')
    .action(async (jobId: string, options: { json?: boolean }) => {
      const job = await (await client()).bulk.get(jobId);
      emit(Boolean(options.json), job, () =>
        [
          style.bold(`job ${job.jobId}: ${job.status}, ${job.completedDomains}/${job.totalDomains} done, ${job.failedDomains} failed, ${job.creditsCharged} charged, ${job.creditsRefunded} refunded${job.error ? `; could not run: ${job.error}` : ''}`),
          table(['domain', 'status', 'competitors', 'likely', 'searchId', 'error'], job.results.map((r) => [r.domain, r.status, r.totalCompetitors, r.likelyCompetitors, r.searchId, [r.error, r.reason].filter(Boolean).join(': ')]), style),
          ...rejectedLines(job.rejectedRows),
          job.nextCursor ? style.dim('(more results: --json and the API\'s cursor, or `rivals bulk download`)') : '',
        ].filter(Boolean).join('\n'),
      );
    });

  bulk
    .command('download')
    .description('the results CSV of a job')
    .argument('<jobId>', 'the job\'s id (job_...), from `rivals bulk list`')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action(async (jobId: string, options: { output?: string }) => writeCsv(await (await client()).bulk.download(jobId), options.output));

  bulk
    .command('cancel')
    .description('cancel a queued or running job; domains not started are refunded')
    .argument('<jobId>', 'the job\'s id (job_...), from `rivals bulk list`')
    .action(async (jobId: string) => {
      await (await client()).bulk.cancel(jobId);
      out(`job ${jobId} cancelled`);
    });

  bulk
    .command('list')
    .description('your bulk jobs, newest first')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const page = await (await client()).bulk.list();
      emit(Boolean(options.json), page.items, () => table(['jobId', 'status', 'domains', 'done', 'failed', 'createdAt'], page.items.map((j) => [j.jobId, j.status, j.totalDomains, j.completedDomains, j.failedDomains, j.createdAt]), style));
    });

  program
    .command('companies')
    .description('every company found across your searches, most often found first (free)')
    .addOption(new Option('--json', 'print JSON').conflicts('csv'))
    .option('--csv', 'print CSV (the API\'s export)')
    .action(async (options: { json?: boolean; csv?: boolean }) => {
      const rivals = await client();
      if (options.csv) return writeCsv(await rivals.myCompanies.csv());
      const companies = await rivals.myCompanies.list();
      emit(Boolean(options.json), companies, () =>
        table(['company', 'product', 'domain', 'found', 'best', 'types', 'lastSeenAt'], companies.items.map((c) => [c.company, c.product ?? '', c.domain, c.timesFound, c.bestMatchScore, c.types.join(','), c.lastSeenAt]), style),
      );
    });

  const saved = program.command('saved').description('your saved companies (watchlist)');
  saved
    .command('list')
    .description('your saved companies, newest first (free)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const items = await collect((await client()).saved.iterate({ limit: 200 }));
      emit(Boolean(options.json), items, () =>
        table(['domain', 'company', 'note', 'lastChecked', 'unseen'], items.map((s) => [s.domain, s.company, s.note, s.lastCheckedAt, s.unseenChanges]), style),
      );
    });
  saved
    .command('add')
    .description('save a company to the watchlist, or update its note (free)')
    .argument('<domain>', 'the company\'s domain, e.g. linear.app')
    .option('--company <name>', 'its name (default: the name Rivals knows it by)')
    .option('--note <text>', 'a note, up to 500 characters')
    .option('--search-id <id>', 'the search it was found in')
    .option('--json', 'print JSON')
    .action(async (domain: string, options: { company?: string; note?: string; searchId?: string; json?: boolean }) => {
      const row = await (await client()).saved.add({ domain, company: options.company, note: options.note, searchId: options.searchId });
      emit(Boolean(options.json), row, () => `saved ${row.domain}`);
    });
  saved
    .command('edit')
    .description('change a saved company\'s note or name (free)')
    .argument('<domain>', 'the saved domain')
    .option('--note <text>', 'the new note ("" clears it)')
    .option('--company <name>', 'the new name')
    .option('--json', 'print JSON')
    .action(async (domain: string, options: { note?: string; company?: string; json?: boolean }) => {
      if (options.note === undefined && options.company === undefined) throw usageError('Give --note or --company.');
      const changes = { ...(options.note !== undefined ? { note: options.note === '' ? null : options.note } : {}), ...(options.company !== undefined ? { company: options.company } : {}) };
      const row = await (await client()).saved.update(domain, changes);
      emit(Boolean(options.json), row, () => `updated ${row.domain}${row.note ? `: ${row.note}` : ''}`);
    });
  saved
    .command('remove')
    .description('remove a company from the watchlist (free)')
    .argument('<domain>', 'the saved domain')
    .action(async (domain: string) => {
      await (await client()).saved.remove(domain);
      out(`removed ${domain}`);
    });

  program
    .command('changes')
    .description("what the monitor found in your watched companies' competitors, newest first (free; --domain marks them seen)")
    .option('--domain <domain>', 'one watched company')
    .option('--since <time>', 'changes detected at or after this ISO 8601 time')
    .option('-n, --limit <n>', 'how many (default 50)', int('--limit', 1, 100_000))
    .option('--json', 'print JSON')
    .action(async (options: { domain?: string; since?: string; limit?: number; json?: boolean }) => {
      const wanted = options.limit ?? 50;
      const rivals = await client();
      const items = await collect(rivals.changes.iterate({ limit: Math.min(wanted, 200), domain: options.domain, since: options.since }), wanted);
      const describe = (c: (typeof items)[number]) =>
        c.kind === 'score_changed' ? `${c.previous?.matchScore} -> ${c.competitor.matchScore}` : c.kind === 'type_changed' ? `${c.previous?.type} -> ${c.competitor.type}` : `${c.competitor.type}, ${c.competitor.matchScore}`;
      emit(Boolean(options.json), items, () =>
        table(['detectedAt', 'watched', 'kind', 'competitor', 'company', 'detail'], items.map((c) => [c.detectedAt, c.domain, c.kind, c.competitor.domain, c.competitor.company, describe(c)]), style),
      );
    });

  program
    .command('share')
    .description('a public read-only link to a search (--revoke to take it back)')
    .argument('<searchId>', 'the search\'s id (srch_...), from `rivals history`')
    .option('--revoke', 'revoke the link')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { revoke?: boolean; json?: boolean }) => {
      const rivals = await client();
      if (options.revoke) {
        await rivals.searches.unshare(id);
        return out(`share of ${id} revoked`);
      }
      const share = await rivals.searches.share(id);
      emit(Boolean(options.json), share, () => share.url);
    });

  const keys = program.command('keys').description('API keys of your account');
  keys
    .command('list')
    .description('the account\'s keys, newest first (never the keys themselves)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const items = await collect((await client()).keys.iterate({ limit: 200 }));
      emit(Boolean(options.json), items, () =>
        table(['id', 'name', 'key', 'createdAt', 'lastUsedAt', 'revokedAt'], items.map((k) => [k.id, k.name, `${k.prefix}...${k.last4}`, k.createdAt, k.lastUsedAt, k.revokedAt]), style),
      );
    });
  keys
    .command('create')
    .description('create a key; it is printed this once')
    .option('--name <name>', 'a name to tell it apart, e.g. ci')
    .option('--json', 'print JSON')
    .action(async (options: { name?: string; json?: boolean }) => {
      const key = await (await client()).keys.create(options.name ? { name: options.name } : {});
      emit(Boolean(options.json), key, () => `${key.key}\n${style.dim(`id ${key.id}; shown this once: store it now`)}`);
    });
  keys
    .command('revoke')
    .description('revoke a key at once (not the account\'s last one)')
    .argument('<id>', 'the key\'s id (key_...), from `rivals keys list`')
    .action(async (id: string) => {
      await (await client()).keys.revoke(id);
      out(`revoked ${id}`);
    });

  for (const command of program.commands) command.exitOverride().configureOutput(program.configureOutput());
  for (const group of [bulk, saved, keys]) for (const command of group.commands) command.exitOverride().configureOutput(program.configureOutput());

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    exitCode = exitCodeFor(error);
    if (error instanceof RivalsError) {
      io.stderr.write(`${errStyle.red(`error ${error.code}`)}${error.status ? ` (${error.status})` : ''}: ${error.message}${error.requestId ? errStyle.dim(` [request ${error.requestId}]`) : ''}\n`);
      if (error.status === 401) io.stderr.write('Run `rivals login` to store a valid key, or set RIVALS_API_KEY.\n');
    } else if (!(error instanceof CommanderError)) {
      io.stderr.write(`${errStyle.red('error')}: ${(error as Error)?.message ?? error}\n`);
    } else if (error.code.startsWith('rivals.')) io.stderr.write(`${errStyle.red('error')}: ${error.message}\n`);
  }
  return exitCode;
}
