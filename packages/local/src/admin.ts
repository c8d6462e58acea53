// operator command: `npm run admin -- <command>`. Accounts are opened by an operator, not a public endpoint. It talks
// to the running local service (.local/runtime.json) by default, or to a deployed table with --table / TABLE_NAME.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_FREE_CREDITS } from '@rivals/core';
import { createDocumentClient, createDynamoClient } from '@rivals/db';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './engines.js';
import { PROJECT_ROOT } from './runtime.js';
import { tableServices } from './services.js';

const wholeNumber = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('a whole number of 0 or more');
  return n;
};

function connect(tableOption?: string) {
  const tableName = tableOption ?? process.env.TABLE_NAME;
  if (tableName) return { client: createDynamoClient(), tableName };
  const runtimeFile = join(PROJECT_ROOT, '.local', 'runtime.json');
  if (!existsSync(runtimeFile)) throw new Error('No running local service (.local/runtime.json) and no --table or TABLE_NAME given.');
  const runtime = JSON.parse(readFileSync(runtimeFile, 'utf8')) as { endpoints: { dynamodb: string }; resources: { tableName: string } };
  return {
    client: createDynamoClient({ endpoint: runtime.endpoints.dynamodb, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
    tableName: runtime.resources.tableName,
  };
}

function servicesFor(tableOption?: string) {
  const { client, tableName } = connect(tableOption);
  const { accounts, apiKeys } = tableServices({ client: createDocumentClient(client), tableName });
  return { accounts, keys: apiKeys, close: () => client.destroy() };
}

const program = new Command('admin').description('Operator commands for Rivals accounts, credits and keys.').option('--table <name>', 'DynamoDB table (default: TABLE_NAME, else the running local service)');
const run = (action: (s: ReturnType<typeof servicesFor>, options: Record<string, any>) => Promise<unknown>) => async (options: Record<string, any>) => {
  const s = servicesFor(program.opts().table);
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
  .requiredOption('--account <id>')
  .requiredOption('--key <keyId>')
  .action(run(async (s, o) => (await s.keys.revoke(o.account, o.key), { revoked: o.key })));
program
  .command('balance')
  .requiredOption('--account <id>')
  .action(run(async (s, o) => ({ accountId: o.account, creditsRemaining: await s.accounts.balance(o.account) })));

program.parseAsync().catch((error: Error) => {
  console.error(`admin: ${error.message}`);
  process.exit(1);
});
