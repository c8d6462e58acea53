// The CDK app's templates (bundling skipped): table keys, functions' runtime, authorizer, routes, gateway errors.
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_MESSAGES } from '@rivals/contracts';
import { buildStage } from '../../infra/stage.js';
import { ROUTES, SCHEDULED } from '../../infra/routes.js';

let stateful: Template;
let api: Template;
const outdir = mkdtempSync(join(tmpdir(), 'rivals-cdk-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));
beforeAll(() => {
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  const stage = buildStage(app, 'test');
  stateful = Template.fromStack(stage.stateful);
  api = Template.fromStack(stage.api);
});

describe('stateful stack', () => {
  it('declares the single table with its key schema, GSI1 and TTL', () => {
    stateful.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      GlobalSecondaryIndexes: [Match.objectLike({ IndexName: 'gsi1', KeySchema: [{ AttributeName: 'gsi1pk', KeyType: 'HASH' }, { AttributeName: 'gsi1sk', KeyType: 'RANGE' }] })],
    });
  });

  it('declares the upload bucket and the bulk queue with a dead-letter queue', () => {
    stateful.resourceCountIs('AWS::S3::Bucket', 1);
    stateful.hasResourceProperties('AWS::SQS::Queue', { RedrivePolicy: Match.objectLike({ maxReceiveCount: 3 }) });
  });
});

describe('api stack', () => {
  it('runs every function on Node 22, ARM64, with the table bound', () => {
    const functions = api.findResources('AWS::Lambda::Function', { Properties: { Runtime: 'nodejs22.x' } });
    expect(Object.keys(functions).length).toBe(ROUTES.length + SCHEDULED.length + 1);
    for (const fn of Object.values(functions)) {
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      expect(fn.Properties.Environment.Variables.TABLE_NAME).toBeDefined();
    }
  });

  it('runs the sweeper on a schedule', () => {
    api.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(5 minutes)', State: 'ENABLED' });
  });

  it('authorizes with a REQUEST authorizer on X-API-Key, cached 60 s', () => {
    api.hasResourceProperties('AWS::ApiGateway::Authorizer', { Type: 'REQUEST', IdentitySource: 'method.request.header.X-API-Key', AuthorizerResultTtlInSeconds: 60 });
  });

  it.each(ROUTES.map((r) => [r.method, r.path, r.auth] as const))('serves %s %s (authorized: %s)', (method, path, auth) => {
    const last = path.split('/').pop();
    const resources = api.findResources('AWS::ApiGateway::Resource', { Properties: { PathPart: last } });
    expect(Object.keys(resources).length).toBeGreaterThan(0);
    api.hasResourceProperties('AWS::ApiGateway::Method', { HttpMethod: method, AuthorizationType: auth ? 'CUSTOM' : 'NONE' });
  });

  it('answers API Gateway\'s own errors in the API\'s error shape', () => {
    for (const [type, status, code] of [['UNAUTHORIZED', '401', 'missing_api_key'], ['ACCESS_DENIED', '401', 'invalid_api_key']] as const) {
      const [response] = Object.values(api.findResources('AWS::ApiGateway::GatewayResponse', { Properties: { ResponseType: type } }));
      expect(response?.Properties.StatusCode).toBe(status);
      const body = JSON.parse(response?.Properties.ResponseTemplates['application/json']);
      expect(body).toEqual({ error: { code, message: GATEWAY_MESSAGES[code], requestId: '$context.requestId' } });
    }
  });

  it('gives the search function the time the engine deadline needs, and the knowledge base', () => {
    api.hasResourceProperties('AWS::Lambda::Function', { Timeout: 28, MemorySize: 1024, Environment: { Variables: Match.objectLike({ KB_INDEX_PATH: '/var/task/kb-index.json' }) } });
  });
});
