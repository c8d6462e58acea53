// operator command: `npm run admin -- <command>`. Accounts are opened by an operator, not a public endpoint. It talks
// to the local service running on --port (default PORT, else 3000; see instance.ts) by default, or to a deployed
// table with --stage / --table / TABLE_NAME. It says on stderr which one it talks to.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CloudFormationClient, DescribeStackResourcesCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { Command, InvalidArgumentError } from 'commander';
import { ApiGatewayAuthorizerCache } from '@rivals/aws/authorizer-cache';
import { DEFAULT_FREE_CREDITS, MonitorService, systemClock, ulidIds, type AuthorizerCache } from '@rivals/core';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SqsMonitorQueue } from '@rivals/aws';
import { createDocumentClient, createDynamoClient, DynamoDiscoveredStore, DynamoKbImportStore, DynamoMonitorStore } from '@rivals/db';
import { loadKnowledgeBase } from '@rivals/kb';
import { parseImport } from '../../kb/src/imports.js';
import { discoveredAsSectorYaml } from './discovered-export.js';
import { LOCAL_REGION } from './engines.js';
import { DEFAULT_PORT, readCredentials, runningInstance, type InstanceRecord } from './instance.js';
import { redrivenDeadLetterQueueUrls } from './provision.js';
import { LOCAL_REST_API_ID, PROJECT_ROOT, STAGE } from './runtime.js';
import { tableServices } from './services.js';

const wholeNumber = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('a whole number of 0 or more');
  return n;
};

const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new InvalidArgumentError('a port number');
  return n;
};

/**
 * The table of a deployed stage, and its REST API (whose authorizer cache a revocation empties), from its API stack's
 * outputs (your AWS credentials and region).
 */
async function deployedStage(stage: string): Promise<{ tableName: string; authorizerCache: AuthorizerCache | undefined }> {
  const cloudFormation = new CloudFormationClient({});
  try {
    const { Stacks } = await cloudFormation.send(new DescribeStacksCommand({ StackName: `Rivals-${stage}-Api` }));
    const output = (key: string) => Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === key)?.OutputValue;
    const tableName = output('TableName');
    if (!tableName) throw new Error(`stack Rivals-${stage}-Api has no TableName output: is it deployed?`);
    const restApiId = output('RestApiId');
    return { tableName, authorizerCache: restApiId ? ApiGatewayAuthorizerCache.of(restApiId, stage) : undefined };
  } finally {
    cloudFormation.destroy();
  }
}

/** The credentials the running instance's engines accept (random per run, in .local/<port>/aws-credentials). */
const localCredentials = (instance: InstanceRecord) => readCredentials(join(PROJECT_ROOT, '.local'), instance.port);

/** Queue URLs by logical id without CDK's hash suffix (BulkQueue, BulkDeadLetterQueue, ...) of a stage's stateful stack. */
async function queuesOfStage(stage: string): Promise<Record<string, string>> {
  const cloudFormation = new CloudFormationClient({});
  try {
    const { StackResources = [] } = await cloudFormation.send(new DescribeStackResourcesCommand({ StackName: `Rivals-${stage}-Stateful` }));
    // A queue's physical id is its URL.
    return Object.fromEntries(StackResources.filter((r) => r.ResourceType === 'AWS::SQS::Queue').map((r) => [r.LogicalResourceId!.replace(/[0-9A-F]{8}$/, ''), r.PhysicalResourceId!]));
  } finally {
    cloudFormation.destroy();
  }
}

/**
 * `redrive`: one pass of the sweeper's bulk part, by the same code the scheduled sweeper runs (functions/shared/bulk.ts):
 * dead letters drained, lost work re-sent (or, its re-sends used up, refunded or abandoned). The handlers' environment
 * is set first: the deployed stage's table and queues, or the running local service's engines.
 */
async function redrive(options: { stage?: string; port: number }) {
  let queues: Record<string, string>;
  if (options.stage) {
    process.env.TABLE_NAME = (await deployedStage(options.stage)).tableName;
    queues = await queuesOfStage(options.stage);
    console.error(`admin: stage ${options.stage} (table ${process.env.TABLE_NAME})`);
  } else {
    const instance = await runningInstance(join(PROJECT_ROOT, '.local'), options.port);
    console.error(`admin: the local service at ${instance.url} (pid ${instance.pid})`);
    queues = instance.resources.queues;
    const credentials = localCredentials(instance);
    Object.assign(process.env, {
      TABLE_NAME: instance.resources.tableName,
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: instance.endpoints.dynamodb,
      AWS_ENDPOINT_URL_SQS: instance.endpoints.sqs,
    });
  }
  Object.assign(process.env, {
    BULK_QUEUE_URL: queues.BulkQueue ?? '',
    WEBHOOK_QUEUE_URL: queues.WebhookQueue ?? '',
    AGGREGATE_QUEUE_URL: queues.AggregateQueue ?? '',
    DEAD_LETTER_QUEUE_URLS: redrivenDeadLetterQueueUrls(queues),
  });
  const bulk = (await import(pathToFileURL(join(PROJECT_ROOT, 'functions/shared/bulk.ts')).href)) as typeof import('../../../functions/shared/bulk.js');
  return bulk.bulkSweeper().sweep();
}

/** The monitor queue of the local service, a deployed stage (its stateful stack's MonitorQueue), or MONITOR_QUEUE_URL. */
async function monitorQueueOf(options: { table?: string; stage?: string; port: number }): Promise<{ sqs: SQSClient; queueUrl: string }> {
  if (options.stage) {
    const queueUrl = (await queuesOfStage(options.stage)).MonitorQueue;
    if (!queueUrl) throw new Error(`stack Rivals-${options.stage}-Stateful has no MonitorQueue: deploy this version`);
    return { sqs: new SQSClient({}), queueUrl };
  }
  if (options.table ?? process.env.TABLE_NAME) {
    const queueUrl = process.env.MONITOR_QUEUE_URL;
    if (!queueUrl) throw new Error("set MONITOR_QUEUE_URL (the monitor queue of that table's stage), or use --stage");
    return { sqs: new SQSClient({}), queueUrl };
  }
  const instance = await runningInstance(join(PROJECT_ROOT, '.local'), options.port);
  const queueUrl = instance.resources.queues.MonitorQueue;
  if (!queueUrl) throw new Error('the local service has no monitor queue: restart it with this version');
  return { sqs: new SQSClient({ endpoint: instance.endpoints.sqs, region: LOCAL_REGION, credentials: localCredentials(instance) }), queueUrl };
}

async function connect(options: { table?: string; stage?: string; port: number }) {
  const deployed = options.stage && !options.table ? await deployedStage(options.stage) : undefined;
  const tableName = options.table ?? deployed?.tableName ?? process.env.TABLE_NAME;
  if (tableName) {
    const client = createDynamoClient();
    const where = process.env.AWS_ENDPOINT_URL_DYNAMODB ?? `AWS region ${await client.config.region()}`;
    console.error(`admin: table ${tableName} (${where})`);
    if (!deployed?.authorizerCache) console.error('admin: no stage named (--stage): a revoked key may still pass for up to the authorizer cache TTL');
    return { client, tableName, authorizerCache: deployed?.authorizerCache };
  }
  const instance = await runningInstance(join(PROJECT_ROOT, '.local'), options.port);
  console.error(`admin: the local service at ${instance.url} (pid ${instance.pid}, data ${instance.dataDir ? `in ${instance.dataDir}` : 'in memory'})`);
  const credentials = localCredentials(instance);
  return {
    client: createDynamoClient({ endpoint: instance.endpoints.dynamodb, region: LOCAL_REGION, credentials }),
    tableName: instance.resources.tableName,
    authorizerCache: instance.gatewayControl
      ? ApiGatewayAuthorizerCache.of(LOCAL_REST_API_ID, STAGE, { endpoint: instance.gatewayControl, region: LOCAL_REGION, credentials })
      : undefined,
  };
}

async function servicesFor(options: { table?: string; stage?: string; port: number }) {
  const { client, tableName, authorizerCache } = await connect(options);
  const table = { client: createDocumentClient(client), tableName };
  const { accounts, apiKeys, audit } = tableServices(table, authorizerCache ? { authorizerCache } : {});
  return { accounts, keys: apiKeys, audit, discovered: new DynamoDiscoveredStore(table), imports: new DynamoKbImportStore(table), monitor: new DynamoMonitorStore(table), close: () => client.destroy() };
}

const program = new Command('admin')
  .description('Operator commands for Rivals accounts, credits and keys.')
  .option('--stage <name>', 'a deployed stage: its table is read from the stack outputs (AWS credentials and region from the environment)')
  .option('--table <name>', 'DynamoDB table (default: TABLE_NAME, else the running local service)')
  .option('--port <port>', 'port of the running local service to talk to', port, Number(process.env.PORT ?? DEFAULT_PORT));
const run = (action: (s: Awaited<ReturnType<typeof servicesFor>>, options: Record<string, any>) => Promise<unknown>) => async (options: Record<string, any>) => {
  const s = await servicesFor(program.opts());
  try {
    console.log(JSON.stringify(await action(s, options), null, 2));
  } finally {
    s.close();
  }
};

program
  .command('create-account')
  .description('Open an account with its free credits, and issue its first API key')
  .requiredOption('--name <name>', 'account name')
  .option('--credits <n>', 'opening credits', wholeNumber, Number(process.env.FREE_CREDITS ?? DEFAULT_FREE_CREDITS))
  .option('--no-key', 'do not issue an API key')
  .action(
    run(async (s, o) => {
      const account = await s.accounts.open(o.name, o.credits);
      const issued = o.key ? await s.keys.issue(account.id, 'default') : null;
      return { account, ...(issued ? { apiKey: issued.key, keyId: issued.record.id } : {}) };
    }),
  );
program
  .command('grant')
  .description('Add credits to an account')
  .requiredOption('--account <id>')
  .requiredOption('--credits <n>', 'credits to add', wholeNumber)
  .option('--reason <text>', 'ledger reason', 'operator grant')
  .action(run(async (s, o) => ({ accountId: o.account, creditsRemaining: await s.accounts.grant(o.account, o.credits, o.reason) })));
program
  .command('issue-key')
  .description('Issue a new API key for an account (shown once)')
  .requiredOption('--account <id>')
  .option('--name <name>', 'key name', 'default')
  .action(
    run(async (s, o) => {
      if (!(await s.accounts.get(o.account))) throw new Error(`No account ${o.account}`);
      const { key, record } = await s.keys.issue(o.account, o.name);
      return { apiKey: key, keyId: record.id, prefix: record.prefix };
    }),
  );
program
  .command('revoke-key')
  .description("Revoke an API key (an operator may revoke an account's last key; the API may not)")
  .requiredOption('--account <id>')
  .requiredOption('--key <keyId>')
  .action(run(async (s, o) => (await s.keys.revoke(o.account, o.key, { keepOneActive: false }), { revoked: o.key })));
program
  .command('close-account')
  .description("Close an account: revoke every one of its keys and empty the authorizer cache, so none is let through again (its data stays; issue-key reopens it)")
  .requiredOption('--account <id>')
  .action(
    run(async (s, o) => {
      if (!(await s.accounts.get(o.account))) throw new Error(`No account ${o.account}`);
      return { accountId: o.account, revokedKeys: await s.keys.revokeAll(o.account) };
    }),
  );
program
  .command('balance')
  .requiredOption('--account <id>')
  .action(run(async (s, o) => ({ accountId: o.account, creditsRemaining: await s.accounts.balance(o.account) })));

program
  .command('audit')
  .description('Prove an account\'s balance equals the sum of its ledger entries (grants - charges + refunds); exits 2 when it does not')
  .requiredOption('--account <id>')
  .action(
    run(async (s, o) => {
      const report = await s.audit.audit(o.account);
      if (!report.consistent) process.exitCode = 2;
      return report;
    }),
  );

const discovered = program.command('discovered').description('The discovered layer: companies learned from homepages read (docs/learning.md)');
discovered
  .command('list')
  .description('Discovered companies by domain, a page at a time')
  .option('--limit <n>', 'companies per page', wholeNumber, 100)
  .option('--cursor <domain>', 'the nextCursor of the previous page')
  .action(
    run(async (s, o) => {
      const page = await s.discovered.list({ limit: Math.max(1, Math.min(o.limit, 1000)), cursor: o.cursor });
      return {
        items: page.items.map((c) => ({ domain: c.domain, name: c.name, categories: c.categories.map((x) => x.id), language: c.language, country: c.country, fetchedAt: c.fetchedAt, via: c.via, ...(c.aliasOf ? { aliasOf: c.aliasOf } : {}) })),
        nextCursor: page.nextCursor,
      };
    }),
  );
discovered
  .command('show')
  .description('One discovered company as stored, and whether its domain is banned')
  .argument('<domain>')
  .action((domain: string) =>
    run(async (s) => {
      const [company, banned] = await Promise.all([s.discovered.get(domain), s.discovered.isBanned(domain)]);
      if (!company && !banned) throw new Error(`No discovered company ${domain}`);
      return { company, banned };
    })({}),
  );
discovered
  .command('ban')
  .description('Remove a domain from the layer and never learn or return it again')
  .argument('<domain>')
  .requiredOption('--reason <text>', 'why (kept with the ban)')
  .action((domain: string, o: { reason: string }) => run(async (s) => (await s.discovered.ban({ domain, reason: o.reason, bannedAt: new Date().toISOString() }), { banned: domain }))({}));
discovered
  .command('unban')
  .description('Let a banned domain be learned again (it returns once a search reads it)')
  .argument('<domain>')
  .action((domain: string) =>
    run(async (s) => {
      if (!(await s.discovered.unban(domain))) throw new Error(`${domain} is not banned`);
      return { unbanned: domain };
    })({}),
  );
discovered
  .command('export')
  .description("Write the layer in the knowledge base's sector YAML format, to review and merge into the curated files")
  .option('--out <file>', 'write here instead of stdout')
  .action(async (o: { out?: string }) => {
    const s = await servicesFor(program.opts());
    try {
      const companies = [];
      let cursor: string | undefined;
      do {
        const page = await s.discovered.list({ limit: 500, cursor });
        companies.push(...page.items.filter((c) => !c.aliasOf));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      const yaml = discoveredAsSectorYaml(companies, new Date().toISOString().slice(0, 10));
      if (o.out) {
        writeFileSync(o.out, yaml);
        console.error(`admin: ${companies.length} companies written to ${o.out}`);
      } else process.stdout.write(yaml);
    } finally {
      s.close();
    }
  });

const monitor = program.command('monitor').description('Watchlist monitoring: every saved company re-researched and compared (docs/monitoring.md)');
monitor
  .command('run')
  .description('Run the monitor once now: every watched company is sent to the monitor queue and checked by its workers; prints what was checked and found')
  .option('--wait <seconds>', 'how long to wait for the checks to finish', wholeNumber, 900)
  .action(async (o: { wait: number }) => {
    const s = await servicesFor(program.opts());
    const { sqs, queueUrl } = await monitorQueueOf(program.opts());
    try {
      // Starting a run needs only the table, the queue and the knowledge base's version; the workers research.
      const service = new MonitorService({ store: s.monitor, endpoints: s.monitor, queue: new SqsMonitorQueue(sqs, queueUrl), clock: systemClock, ids: ulidIds(), kbVersion: loadKnowledgeBase().version });
      const started = await service.startRun('manual');
      if (!started) throw new Error('the run could not start');
      console.error(`admin: run ${started.id}: ${started.total} watched companies sent to the monitor queue; waiting for the checks`);
      const until = Date.now() + o.wait * 1000;
      let run = await s.monitor.getRun(started.id);
      while (run && run.checked + run.failed + run.skipped < (run.total ?? 0) && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 500));
        run = await s.monitor.getRun(started.id);
      }
      if (!run) throw new Error(`run ${started.id} disappeared`);
      const done = run.checked + run.failed + run.skipped >= (run.total ?? 0);
      if (!done) process.exitCode = 3;
      const found = await s.monitor.listFound(run.id);
      console.log(JSON.stringify({ runId: run.id, done, watched: run.total, checked: run.checked, failed: run.failed, skipped: run.skipped, changedCompanies: run.changed, changes: run.changes, found }, null, 2));
    } finally {
      sqs.destroy();
      s.close();
    }
  });
const kb = program.command('kb').description("The deployment's own knowledge-base companies");
kb.command('import')
  .description('Add companies and rivalries to this deployment, live: YAML in the sector format, or CSV domain,name,description,categories,competitors')
  .argument('<file>')
  .action((file: string) =>
    run(async (s) => {
      const { companies, problems } = parseImport(basename(file), readFileSync(file, 'utf8'), loadKnowledgeBase());
      if (problems.length) throw new Error(`${problems.length} problem(s), nothing imported:\n  ${problems.join('\n  ')}`);
      await s.imports.add(companies, new Date().toISOString());
      return { imported: companies.length, domains: companies.map((c) => c.domain), live: 'within a minute, in every process' };
    })({}),
  );

program
  .command('redrive')
  .description('Re-drive lost and dead-lettered work now, by the sweeper\'s rule: dead-letter queues drained, bulk domains, webhooks and aggregations with no sign of life for the re-drive window sent again (refunded or abandoned once their re-sends are used up)')
  .action(async () => console.log(JSON.stringify(await redrive(program.opts()), null, 2)));

program.parseAsync().catch((error: Error) => {
  console.error(`admin: ${error.message}`);
  process.exit(1);
});
