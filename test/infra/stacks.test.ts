// The CDK app's templates (bundling skipped): table keys, functions' runtime, authorizer, routes, gateway errors.
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_MESSAGES } from '@rivals/contracts';
import { buildStage } from '../../infra/stage.js';
import { accessOf, ROUTES, SCHEDULED } from '../../infra/routes.js';

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
    for (const fn of Object.values(functions)) expect(fn.Properties.Architectures).toEqual(['arm64']);
  });

  it('gives the table only to the functions that use it', () => {
    const functions = api.findResources('AWS::Lambda::Function', { Properties: { Runtime: 'nodejs22.x' } });
    const withTable = Object.keys(functions).filter((id) => functions[id]!.Properties.Environment.Variables.TABLE_NAME !== undefined);
    const keyless = ROUTES.filter((r) => accessOf(r) === 'none').map((r) => `${r.id}Function`);
    expect(keyless.length).toBeGreaterThan(0);
    for (const id of keyless) expect(withTable.some((t) => t.startsWith(id))).toBe(false);
    expect(withTable.length).toBe(Object.keys(functions).length - keyless.length);
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

  it('keeps API Gateway\'s own status codes for its default answers, with the request id and security headers', () => {
    for (const type of ['DEFAULT_4XX', 'DEFAULT_5XX']) {
      const [response] = Object.values(api.findResources('AWS::ApiGateway::GatewayResponse', { Properties: { ResponseType: type } }));
      expect(response?.Properties.StatusCode).toBeUndefined();
    }
    const all = Object.values(api.findResources('AWS::ApiGateway::GatewayResponse'));
    for (const response of all) {
      expect(response.Properties.ResponseParameters).toMatchObject({
        'gatewayresponse.header.X-Request-Id': 'context.requestId',
        'gatewayresponse.header.X-Content-Type-Options': "'nosniff'",
        'gatewayresponse.header.Cache-Control': "'no-store'",
      });
    }
    const [throttled] = Object.values(api.findResources('AWS::ApiGateway::GatewayResponse', { Properties: { ResponseType: 'THROTTLED' } }));
    expect(throttled?.Properties.ResponseParameters['gatewayresponse.header.Retry-After']).toBe("'1'");
  });

  it('is a regional API whose access logs carry latency, status, error and integration fields', () => {
    api.hasResourceProperties('AWS::ApiGateway::RestApi', { EndpointConfiguration: { Types: ['REGIONAL'] } });
    const [stage] = Object.values(api.findResources('AWS::ApiGateway::Stage'));
    const format = JSON.parse(stage!.Properties.AccessLogSetting.Format);
    expect(Object.keys(format)).toEqual(expect.arrayContaining(['responseLatency', 'integrationLatency', 'status', 'integrationStatus', 'integrationError', 'errorMessage']));
    expect(stage!.Properties.MethodSettings?.[0]?.ThrottlingRateLimit ?? stage!.Properties.ThrottlingRateLimit ?? 200).toBeGreaterThan(0);
    api.resourceCountIs('AWS::ApiGateway::Account', 0); // the account-wide CloudWatch role is opt-in
  });

  it('alarms on 5xx, latency, function errors and throttles, table throttles, dead letters and sweeper refunds', () => {
    const alarms = Object.values(api.findResources('AWS::CloudWatch::Alarm'));
    const metrics = alarms.map((a) => a.Properties.MetricName ?? 'expression');
    expect(metrics).toEqual(expect.arrayContaining(['5XXError', 'Latency', 'Errors', 'Throttles', 'ApproximateNumberOfMessagesVisible', 'SweeperRefunds', 'expression']));
    for (const a of alarms) expect(a.Properties.AlarmActions).toHaveLength(1);
    api.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    api.resourceCountIs('AWS::SNS::Subscription', 0); // an email subscription only with alarmEmail
  });

  it('names its outputs', () => {
    expect(Object.keys(api.findOutputs('*'))).toEqual(expect.arrayContaining(['ApiUrl', 'TableName', 'AlarmTopicArn']));
  });

  it('has no web ACL unless asked for', () => {
    api.resourceCountIs('AWS::WAFv2::WebACL', 0);
  });

  it('gives the search function the time the engine deadline needs, and the knowledge base', () => {
    api.hasResourceProperties('AWS::Lambda::Function', { Timeout: 28, MemorySize: 1024, Environment: { Variables: Match.objectLike({ KB_INDEX_PATH: '/var/task/kb-index.json' }) } });
  });
});

describe('options', () => {
  const synth = (context: Record<string, string>, stage = 'prod') => {
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [], ...context } });
    const built = buildStage(app, stage);
    return { stateful: Template.fromStack(built.stateful), api: Template.fromStack(built.api) };
  };

  it('puts a web ACL with a per-IP rate rule and AWS\'s common rules on the stage when waf=true', () => {
    const { api: t } = synth({ waf: 'true', wafRateLimit: '3000' });
    t.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'REGIONAL',
      Rules: Match.arrayWith([
        Match.objectLike({ Statement: { RateBasedStatement: { Limit: 3000, AggregateKeyType: 'IP' } } }),
        Match.objectLike({ Statement: { ManagedRuleGroupStatement: Match.objectLike({ Name: 'AWSManagedRulesCommonRuleSet' }) } }),
      ]),
    });
    t.resourceCountIs('AWS::WAFv2::WebACLAssociation', 1);
  });

  it('retains data by default on any stage but dev', () => {
    const prod = synth({}, 'prod').stateful;
    prod.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', Properties: Match.objectLike({ DeletionProtectionEnabled: true }) });
    const dev = synth({}, 'dev').stateful;
    dev.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Delete', Properties: Match.objectLike({ DeletionProtectionEnabled: false }) });
    const kept = synth({ retainData: 'true' }, 'dev').stateful;
    kept.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain' });
  });

  it('encrypts the table, bucket and queues with a rotated customer-managed key when asked', () => {
    const { stateful: t } = synth({ customerManagedKey: 'true' });
    t.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    t.hasResourceProperties('AWS::DynamoDB::Table', { SSESpecification: Match.objectLike({ SSEEnabled: true, SSEType: 'KMS' }) });
    t.hasResourceProperties('AWS::SQS::Queue', { KmsMasterKeyId: Match.anyValue() });
  });

  it('allows browser uploads only from the configured origins', () => {
    const none = synth({}).stateful.findResources('AWS::S3::Bucket');
    expect(Object.values(none)[0]!.Properties.CorsConfiguration).toBeUndefined();
    synth({ uploadOrigins: 'https://app.example.com' }).stateful.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedOrigins: ['https://app.example.com'], AllowedMethods: ['PUT'] })] },
    });
  });

  it('refuses configuration that cannot work', () => {
    expect(() => synth({ domainName: 'api.example.com' })).toThrow(/certificateArn/);
    expect(() => synth({ providers: 'gpt' })).toThrow(/unknown provider/);
    expect(() => synth({ retainData: 'yes' })).toThrow(/true or false/);
  });
});
