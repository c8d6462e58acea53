// operator command: `npm run admin -- <command>`. Accounts are opened by an operator, not a public endpoint. It talks
// to the local service running on --port (default PORT, else 3000; see instance.ts) by default, or to a deployed
// table with --stage / --table / TABLE_NAME. It says on stderr which one it talks to.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CloudFormationClient, DescribeStackResourcesCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_FREE_CREDITS } from '@rivals/core';
import { createDocumentClient, createDynamoClient } from '@rivals/db';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './engines.js';
import { DEFAULT_PORT, runningInstance } from './instance.js';
import { PROJECT_ROOT } from './runtime.js';
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

/** The table of a deployed stage, from its API stack's outputs (your AWS credentials and region). */
async function tableOfStage(stage: string): Promise<string> {
  const cloudFormation = new CloudFormationClient({});
  try {
    const { Stacks } = await cloudFormation.send(new DescribeStacksCommand({ StackName: `Rivals-${stage}-Api` }));
    const tableName = Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === 'TableName')?.OutputValue;
    if (!tableName) throw new Error(`stack Rivals-${stage}-Api has no TableName output: is it deployed?`);
    return tableName;
  } finally {
    cloudFormation.destroy();
  }
}

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
    process.env.TABLE_NAME = await tableOfStage(options.stage);
    queues = await queuesOfStage(options.stage);
    console.error(`admin: stage ${options.stage} (table ${process.env.TABLE_NAME})`);
  } else {
    const instance = await runningInstance(join(PROJECT_ROOT, '.local'), options.port);
    console.error(`admin: the local service at ${instance.url} (pid ${instance.pid})`);
    queues = instance.resources.queues;
    Object.assign(process.env, {
      TABLE_NAME: instance.resources.tableName,
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: instance.endpoints.dynamodb,
      AWS_ENDPOINT_URL_SQS: instance.endpoints.sqs,
    });
  }
  Object.assign(process.env, {
    BULK_QUEUE_URL: queues.BulkQueue ?? '',
    WEBHOOK_QUEUE_URL: queues.WebhookQueue ?? '',
    AGGREGATE_QUEUE_URL: queues.AggregateQueue ?? '',
    DEAD_LETTER_QUEUE_URLS: Object.entries(queues).filter(([name]) => name.endsWith('DeadLetterQueue')).map(([, url]) => url).join(','),
  });
  const bulk = (await import(pathToFileURL(join(PROJECT_ROOT, 'functions/shared/bulk.ts')).href)) as typeof import('../../../functions/shared/bulk.js');
  return bulk.bulkSweeper().sweep();
}

async function connect(options: { table?: string; stage?: string; port: number }) {
  const tableName = options.table ?? (options.stage ? await tableOfStage(options.stage) : process.env.TABLE_NAME);
  if (tableName) {
    const client = createDynamoClient();
    const where = process.env.AWS_ENDPOINT_URL_DYNAMODB ?? `AWS region ${await client.config.region()}`;
    console.error(`admin: table ${tableName} (${where})`);
    return { client, tableName };
  }
  const instance = await runningInstance(join(PROJECT_ROOT, '.local'), options.port);
  console.error(`admin: the local service at ${instance.url} (pid ${instance.pid}, data ${instance.dataDir ? `in ${instance.dataDir}` : 'in memory'})`);
  return {
    client: createDynamoClient({ endpoint: instance.endpoints.dynamodb, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
    tableName: instance.resources.tableName,
  };
}

async function servicesFor(options: { table?: string; stage?: string; port: number }) {
  const { client, tableName } = await connect(options);
  const { accounts, apiKeys, audit } = tableServices({ client: createDocumentClient(client), tableName });
  return { accounts, keys: apiKeys, audit, close: () => client.destroy() };
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

program
  .command('redrive')
  .description('Re-drive lost and dead-lettered work now, by the sweeper\'s rule: dead-letter queues drained, bulk domains, webhooks and aggregations with no sign of life for the re-drive window sent again (refunded or abandoned once their re-sends are used up)')
  .action(async () => console.log(JSON.stringify(await redrive(program.opts()), null, 2)));

program.parseAsync().catch((error: Error) => {
  console.error(`admin: ${error.message}`);
  process.exit(1);
});
