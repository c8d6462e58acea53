// The README's operator story, step by step, checked offline: the bootstrap step is needed (the templates check CDK's
// bootstrap version), `npm run deploy` deploys every stack of the stage with the stateful one first, the outputs the
// README names exist, and `npm run admin -- --stage prod` finds the table from the API stack's TableName output (a
// CloudFormation stand-in on 127.0.0.1 answers DescribeStacks, as AWS would after the deploy).
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../infra/constructs/api-function.js';
import { cleanOutdirs, cliApp } from './cli-app.js';

const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
const deploySection = readme.slice(readme.indexOf('## Deploying to AWS'), readme.indexOf('### Restoring the table'));
const scripts = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
let built: ReturnType<typeof cliApp>;
let assembly: ReturnType<ReturnType<typeof cliApp>['app']['synth']>;

afterAll(cleanOutdirs);
beforeAll(() => {
  built = cliApp({ alarmEmail: 'ops@example.com' }, { stage: 'prod' });
  assembly = built.app.synth();
}, 120_000);

describe('the README\'s deploy steps', () => {
  it('bootstraps first: the templates need CDK\'s bootstrap stack', () => {
    expect(deploySection).toContain('npx cdk bootstrap');
    for (const stack of [built.stage.stateful, built.stage.api]) {
      const template = assembly.getStackByName(stack.stackName).template as { Rules?: Record<string, unknown>; Parameters?: Record<string, unknown> };
      expect(Object.keys(template.Rules ?? {})).toContain('CheckBootstrapVersion');
    }
  });

  it('deploys every stack of the stage, the stateful one first', () => {
    expect(scripts.deploy).toMatch(/^cdk deploy --all\b/);
    expect(deploySection).toContain('npm run deploy -- -c stage=prod');
    const api = assembly.getStackByName(built.stage.api.stackName);
    expect(api.dependencies.map((d) => d.id)).toContain(built.stage.stateful.stackName);
  });

  it('names only outputs the API stack declares', () => {
    const named = [...deploySection.matchAll(/`(\w+(?:Url|Name|Arn))`/g)].map((m) => m[1]!).filter((n) => /^[A-Z]/.test(n));
    expect(named).toEqual(expect.arrayContaining(['ApiUrl', 'DashboardUrl', 'TableName', 'AlarmTopicArn', 'OriginSecretArn']));
    const outputs = Object.keys((assembly.getStackByName(built.stage.api.stackName).template as { Outputs: Record<string, unknown> }).Outputs);
    for (const name of new Set(named)) expect(outputs, name).toContain(name);
  });
});

describe('npm run admin -- --stage prod', () => {
  let server: Server;
  const asked: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        asked.push(body);
        const json = String(req.headers['content-type']).includes('json');
        const stackName = json ? (JSON.parse(body) as { StackName: string }).StackName : new URLSearchParams(body).get('StackName');
        const stack = { StackName: stackName, StackStatus: 'UPDATE_COMPLETE', CreationTime: '2026-11-28T00:00:00Z', Outputs: [{ OutputKey: 'TableName', OutputValue: 'Rivals-prod-Stateful-Table-1A2B3C' }] };
        if (stackName !== built.stage.api.stackName) {
          res.writeHead(400, { 'content-type': 'text/xml' }).end('<ErrorResponse><Error><Type>Sender</Type><Code>ValidationError</Code><Message>Stack does not exist</Message></Error></ErrorResponse>');
          return;
        }
        if (json) {
          res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify({ Stacks: [{ ...stack, CreationTime: Date.parse(stack.CreationTime) / 1000 }] }));
          return;
        }
        const output = stack.Outputs.map((o) => `<member><OutputKey>${o.OutputKey}</OutputKey><OutputValue>${o.OutputValue}</OutputValue></member>`).join('');
        res.writeHead(200, { 'content-type': 'text/xml' }).end(
          `<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStacksResult><Stacks><member><StackName>${stack.StackName}</StackName><StackStatus>${stack.StackStatus}</StackStatus><CreationTime>${stack.CreationTime}</CreationTime><Outputs>${output}</Outputs></member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></DescribeStacksResponse>`,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('finds the table of the stage from the API stack\'s TableName output', { timeout: 120_000 }, async () => {
    const { port } = server.address() as AddressInfo;
    const child = spawn('npm', ['run', '--silent', 'admin', '--', '--stage', 'prod', 'balance', '--account', 'acct_x'], {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
        AWS_ENDPOINT_URL_CLOUDFORMATION: `http://127.0.0.1:${port}`,
        // Nothing answers there: the command must have found its table before it reaches DynamoDB.
        AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9',
        AWS_MAX_ATTEMPTS: '1',
      },
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).toContain('admin: table Rivals-prod-Stateful-Table-1A2B3C');
    expect(asked.join('\n')).toContain(built.stage.api.stackName);
  });
});
