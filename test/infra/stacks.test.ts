// The CDK app's templates, built as the CLI builds them (cdk.json's context, a region; bundling skipped): table keys,
// functions' runtime, authorizer, routes, gateway errors, and what each configuration key changes.
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_MESSAGES } from '@rivals/contracts';
import { DEFAULT_RATE_LIMITS } from '@rivals/core';
import { accessOf, RATE_LIMIT_PARTITION, REDRIVE_AFTER_SECONDS, ROUTES, SWEEPER, WORKERS } from '../../infra/routes.js';
import { cleanOutdirs, cliTemplates, FUNCTION_COUNT } from './cli-app.js';

let stateful: Template;
let api: Template;
let workers: Template;
/** The API's and the workers' stacks as one. */
let compute: Template;
afterAll(cleanOutdirs);
beforeAll(() => {
  ({ stateful, api, workers, compute } = cliTemplates({}, { stage: 'dev' }));
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

  it('declares the upload bucket, and every work queue with its own dead-letter queue, five receives first', () => {
    stateful.resourceCountIs('AWS::S3::Bucket', 1);
    const queues = stateful.findResources('AWS::SQS::Queue');
    const work = Object.entries(queues).filter(([id]) => !id.includes('DeadLetter'));
    expect(work.map(([id]) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual(['AggregateQueue', 'BulkQueue', 'MonitorQueue', 'WebhookQueue']);
    const deadLetterTargets = work.map(([, q]) => JSON.stringify(q.Properties.RedrivePolicy.deadLetterTargetArn));
    expect(new Set(deadLetterTargets).size).toBe(4);
    expect(deadLetterTargets.find((t) => t.includes('Webhook'))).toContain('WebhookDeadLetterQueue');
    for (const [, q] of work) expect(q.Properties.RedrivePolicy.maxReceiveCount).toBeGreaterThanOrEqual(5);
  });
});

describe('api and workers stacks', () => {
  it('runs every function on Node 22, ARM64, with the table bound', () => {
    const functions = compute.findResources('AWS::Lambda::Function', { Properties: { Runtime: 'nodejs22.x' } });
    expect(Object.keys(functions).length).toBe(FUNCTION_COUNT);
    for (const fn of Object.values(functions)) expect(fn.Properties.Architectures).toEqual(['arm64']);
  });

  it('gives the routes that need no data only the rate-limit buckets of the table', () => {
    const keyless = ROUTES.filter((r) => accessOf(r) === 'none').map((r) => r.id);
    expect(keyless.length).toBeGreaterThan(0);
    const policies = api.findResources('AWS::IAM::Policy');
    for (const id of keyless) {
      const [policy] = Object.entries(policies).filter(([name]) => name.startsWith(`${id}Function`)).map(([, p]) => p);
      const dynamo = (policy?.Properties.PolicyDocument.Statement as { Action: string | string[]; Condition?: unknown }[]).filter((st) => JSON.stringify(st.Action).includes('dynamodb:'));
      expect(dynamo).toHaveLength(1);
      expect(JSON.stringify(dynamo[0]?.Condition)).toContain(`${RATE_LIMIT_PARTITION}*`);
    }
  });

  it('reads the bulk queue with partial batch responses and bounded concurrency, its visibility six times the worker timeout', () => {
    workers.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      BatchSize: WORKERS.bulkDomain.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: WORKERS.bulkDomain.maxConcurrency },
    });
    const queues = stateful.findResources('AWS::SQS::Queue', { Properties: { VisibilityTimeout: WORKERS.bulkDomain.timeoutSeconds * 6 } });
    expect(Object.keys(queues)).toHaveLength(1);
    workers.hasResourceProperties('AWS::Events::Rule', { EventPattern: { source: ['aws.s3'], 'detail-type': ['Object Created'] } });
  });

  it('counts settled searches off the search path: the aggregate queue (own dead-letter queue) feeds its worker, and only searching functions (and the sweeper, re-driving) send to it', () => {
    const isAggregateQueue = (value: unknown) => /AggregateQueue(?!.*DeadLetter)/.test(JSON.stringify(value));
    const [queue] = Object.entries(stateful.findResources('AWS::SQS::Queue')).filter(([id]) => id.startsWith('AggregateQueue'));
    expect(queue?.[1].Properties.VisibilityTimeout).toBe(WORKERS.aggregate.timeoutSeconds * 6);
    expect(JSON.stringify(queue?.[1].Properties.RedrivePolicy)).toContain('AggregateDeadLetterQueue');
    const mappings = Object.values(workers.findResources('AWS::Lambda::EventSourceMapping')).filter((m) => isAggregateQueue(m.Properties.EventSourceArn));
    expect(mappings).toHaveLength(1);
    expect(mappings[0]?.Properties).toMatchObject({ BatchSize: WORKERS.aggregate.batchSize, FunctionResponseTypes: ['ReportBatchItemFailures'], ScalingConfig: { MaximumConcurrency: WORKERS.aggregate.maxConcurrency } });
    expect(JSON.stringify(mappings[0]?.Properties.FunctionName)).toContain(WORKERS.aggregate.id);
    const senders = Object.entries(compute.findResources('AWS::IAM::Policy'))
      .filter(([, p]) => (p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]).some((st) => [st.Action].flat().includes('sqs:SendMessage') && isAggregateQueue(st.Resource)))
      .map(([id]) => id);
    // The search and look-alike functions, the bulk worker, and the sweeper (re-driving lost aggregations).
    expect(senders).toHaveLength(4);
    expect(senders.some((id) => id.startsWith('SearchFunction'))).toBe(true);
    expect(senders.some((id) => id.startsWith('LookalikesFunction'))).toBe(true);
    expect(senders.some((id) => id.startsWith('SweeperFunction'))).toBe(true);
    expect(senders.some((id) => id.includes(WORKERS.bulkDomain.id))).toBe(true);
  });

  it('monitors watchlists: an hourly schedule with the run interval, the monitor queue feeding its worker with bounded concurrency', () => {
    const [queue] = Object.entries(stateful.findResources('AWS::SQS::Queue')).filter(([id]) => id.startsWith('MonitorQueue'));
    expect(queue?.[1].Properties.VisibilityTimeout).toBe(WORKERS.monitor.timeoutSeconds * 6);
    const mappings = Object.values(workers.findResources('AWS::Lambda::EventSourceMapping')).filter((m) => /MonitorQueue/.test(JSON.stringify(m.Properties.EventSourceArn)));
    expect(mappings).toHaveLength(1);
    expect(mappings[0]?.Properties).toMatchObject({ BatchSize: WORKERS.monitor.batchSize, FunctionResponseTypes: ['ReportBatchItemFailures'], ScalingConfig: { MaximumConcurrency: WORKERS.monitor.maxConcurrency } });
    workers.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 hour)', State: 'ENABLED' });
    workers.hasResourceProperties('AWS::Lambda::Function', { Environment: { Variables: Match.objectLike({ MONITOR_EVERY_HOURS: '24', MONITOR_QUEUE_URL: Match.anyValue() }) } });
  });

  it('runs the sweeper on a schedule', () => {
    workers.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(5 minutes)', State: 'ENABLED' });
  });

  it('authorizes with a REQUEST authorizer on X-API-Key (and CloudFront\'s origin header), cached 60 s', () => {
    api.hasResourceProperties('AWS::ApiGateway::Authorizer', { Type: 'REQUEST', IdentitySource: 'method.request.header.X-API-Key,method.request.header.x-origin-verify', AuthorizerResultTtlInSeconds: 60 });
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

  it('answers an authorizer error (key lookups of one IP over the limit) with 429 rate_limited and Retry-After', () => {
    const [response] = Object.values(api.findResources('AWS::ApiGateway::GatewayResponse', { Properties: { ResponseType: 'AUTHORIZER_CONFIGURATION_ERROR' } }));
    expect(response?.Properties.StatusCode).toBe('429');
    expect(response?.Properties.ResponseParameters).toMatchObject({ 'gatewayresponse.header.Retry-After': "'1'" });
    const body = JSON.parse(response?.Properties.ResponseTemplates['application/json']);
    expect(body).toEqual({ error: { code: 'rate_limited', message: GATEWAY_MESSAGES.rate_limited, requestId: '$context.requestId', retryAfterSeconds: 1 } });
  });

  it('passes the documented rate limits to every function, and takes them from CDK context', () => {
    const { key, ip } = DEFAULT_RATE_LIMITS;
    const expected = { RATE_LIMIT_KEY_PER_SECOND: String(key.perSecond), RATE_LIMIT_KEY_BURST: String(key.burst), RATE_LIMIT_IP_PER_SECOND: String(ip.perSecond), RATE_LIMIT_IP_BURST: String(ip.burst) };
    const functions = Object.values(compute.findResources('AWS::Lambda::Function', { Properties: { Runtime: 'nodejs22.x' } }));
    for (const fn of functions) expect(fn.Properties.Environment.Variables).toMatchObject(expected);
    const custom = cliTemplates({ rateLimitKeyBurst: '5', rateLimitIpPerSecond: 0 }, { stage: 'dev' }).api;
    custom.hasResourceProperties('AWS::Lambda::Function', { Environment: { Variables: Match.objectLike({ RATE_LIMIT_KEY_BURST: '5', RATE_LIMIT_IP_PER_SECOND: '0' }) } });
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

  it('alarms on 5xx, latency, function errors and throttles, table throttles, dead letters and sweeper refunds, all to the one topic', () => {
    const alarms = Object.values(compute.findResources('AWS::CloudWatch::Alarm'));
    const metrics = alarms.map((a) => a.Properties.MetricName ?? 'expression');
    expect(metrics).toEqual(expect.arrayContaining(['5XXError', 'Latency', 'Errors', 'Throttles', 'ApproximateNumberOfMessagesVisible', 'SweeperRefunds', 'expression']));
    const [topic] = Object.keys(api.findResources('AWS::SNS::Topic'));
    // In the workers' stack, the API stack's topic arrives as a cross-stack reference to it.
    for (const a of alarms) {
      expect(a.Properties.AlarmActions).toHaveLength(1);
      expect(JSON.stringify(a.Properties.AlarmActions)).toContain(topic);
    }
    compute.resourceCountIs('AWS::SNS::Topic', 1);
    compute.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    api.resourceCountIs('AWS::SNS::Subscription', 0); // an email subscription only with alarmEmail
  });

  it('lets the sweeper drain the dead-letter queues and re-send their work, and alarms when a dead letter outlives the re-drive', () => {
    const [sweeper] = Object.entries(workers.findResources('AWS::Lambda::Function')).filter(([id]) => id.startsWith('SweeperFunction')).map(([, fn]) => fn);
    const urls = JSON.stringify(sweeper?.Properties.Environment.Variables.DEAD_LETTER_QUEUE_URLS);
    expect(urls).toMatch(/BulkDeadLetterQueue/);
    expect(urls).toMatch(/AggregateDeadLetterQueue/);
    expect(urls).toMatch(/WebhookDeadLetterQueue/);
    expect(urls).not.toMatch(/MonitorDeadLetterQueue/); // a failed check is made again by the next monitor run
    expect(JSON.stringify(sweeper?.Properties.Environment.Variables.AGGREGATE_QUEUE_URL)).toMatch(/AggregateQueue/);
    const statements = Object.entries(workers.findResources('AWS::IAM::Policy'))
      .filter(([id]) => id.startsWith('SweeperFunction'))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    // (statements may be merged by CDK's policy minimisation: what matters is which actions reach which queues)
    const reaching = (action: string) => JSON.stringify(statements.filter((st) => [st.Action].flat().includes(action)).map((st) => st.Resource));
    for (const action of ['sqs:ReceiveMessage', 'sqs:DeleteMessage']) {
      expect(reaching(action)).toMatch(/BulkDeadLetterQueue/);
      expect(reaching(action)).toMatch(/AggregateDeadLetterQueue/);
      expect(reaching(action)).not.toMatch(/"[^"]*(BulkQueue|WebhookQueue|AggregateQueue)[0-9A-F]{8}/); // never the work queues
    }
    expect(statements.some((st) => JSON.stringify(st.Action).includes('sqs:SendMessage') && /AggregateQueue/.test(JSON.stringify(st.Resource)))).toBe(true);

    const ageAlarms = Object.entries(workers.findResources('AWS::CloudWatch::Alarm', { Properties: { MetricName: 'ApproximateAgeOfOldestMessage' } }))
      .filter(([id]) => id.includes('DeadLetterAge'))
      .map(([, alarm]) => alarm);
    expect(ageAlarms).toHaveLength(3);
    const sweeperPeriod = SWEEPER.everyMinutes * 60;
    for (const alarm of ageAlarms) expect(alarm.Properties).toMatchObject({ Threshold: REDRIVE_AFTER_SECONDS + sweeperPeriod, Statistic: 'Maximum', ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    for (const name of ['BulkDeadLetterQueue', 'WebhookDeadLetterQueue', 'AggregateDeadLetterQueue']) expect(ageAlarms.map((a) => JSON.stringify(a.Properties.Dimensions)).join()).toContain(name);
  });

  it('names its outputs', () => {
    expect(Object.keys(api.findOutputs('*'))).toEqual(expect.arrayContaining(['ApiUrl', 'TableName', 'AlarmTopicArn', 'DashboardUrl']));
  });

  it('serves the dashboard from a private bucket and /api/* from the API on one CloudFront origin, with security headers', () => {
    const [distribution] = Object.values(api.findResources('AWS::CloudFront::Distribution'));
    const config = distribution!.Properties.DistributionConfig;
    const apiBehavior = config.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/api/*');
    expect(apiBehavior).toMatchObject({ ViewerProtocolPolicy: 'https-only', CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad' });
    expect(apiBehavior.AllowedMethods).toEqual(expect.arrayContaining(['POST', 'DELETE', 'OPTIONS']));
    expect(config.DefaultCacheBehavior.FunctionAssociations).toHaveLength(1);
    api.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    // The built dashboard always ships: copied into the site bucket, CloudFront's cache invalidated.
    api.hasResourceProperties('Custom::CDKBucketDeployment', { DistributionPaths: ['/*'] });
    api.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: { SecurityHeadersConfig: Match.objectLike({ StrictTransportSecurity: Match.objectLike({ Override: true }), ContentSecurityPolicy: Match.anyValue() }) },
    });
    api.hasResourceProperties('AWS::S3::Bucket', { PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true } });
  });

  it('has no web ACL in dev unless asked for', () => {
    api.resourceCountIs('AWS::WAFv2::WebACL', 0);
  });

  it('gives the search function the time the engine deadline needs, and the knowledge base', () => {
    api.hasResourceProperties('AWS::Lambda::Function', { Timeout: 28, MemorySize: 1024, Environment: { Variables: Match.objectLike({ KB_INDEX_PATH: '/var/task/kb-index.json' }) } });
  });
});

describe('options', { timeout: 120_000 }, () => {
  const synth = (context: Record<string, string>, stage = 'prod') => cliTemplates({ alarmEmail: 'none', ...context }, { stage });

  it('puts a web ACL with a per-IP rate rule and AWS\'s common rules on the stage when waf=true', () => {
    const { api: t } = synth({ waf: 'true', wafRateLimit: '3000' });
    t.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'REGIONAL',
      Rules: Match.arrayWith([
        Match.objectLike({ Statement: { RateBasedStatement: Match.objectLike({ Limit: 3000, AggregateKeyType: 'FORWARDED_IP' }) } }),
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

  it('takes the monitor run interval from monitorEveryHours', () => {
    synth({ monitorEveryHours: '6' }).workers.hasResourceProperties('AWS::Lambda::Function', { Environment: { Variables: Match.objectLike({ MONITOR_EVERY_HOURS: '6' }) } });
  });

  it('gives the search function its providers, their secret and one Bedrock model only when providers are on', () => {
    const off = synth({}).compute;
    expect(JSON.stringify(off.findResources('AWS::IAM::Policy'))).not.toMatch(/bedrock|rivals\/providers/);
    const on = synth({ providers: 'bedrock,openai', bedrockModelId: 'anthropic.claude-3-haiku', providerSecret: 'rivals/providers' }).compute;
    // The search and look-alike functions and the bulk and monitor workers all research with providers (one engine composition).
    expect(Object.keys(on.findResources('AWS::Lambda::Function', { Properties: { Environment: { Variables: Match.objectLike({ RIVALS_PROVIDERS: 'bedrock,openai', BEDROCK_MODEL_ID: 'anthropic.claude-3-haiku' }) } } }))).toHaveLength(4);
    const policies = JSON.stringify(on.findResources('AWS::IAM::Policy'));
    expect(policies).toContain('bedrock:InvokeModel');
    expect(policies).toContain('foundation-model/anthropic.claude-3-haiku');
    expect(policies).toContain('secretsmanager:GetSecretValue');
    expect(() => synth({ providers: 'bedrock' })).toThrow(/bedrockModelId/);
  });

  it('refuses configuration that cannot work', () => {
    expect(() => synth({ domainName: 'api.example.com' })).toThrow(/certificateArn/);
    expect(() => synth({ providers: 'gpt' })).toThrow(/unknown provider/);
    expect(() => synth({ retainData: 'yes' })).toThrow(/true or false/);
  });
});
