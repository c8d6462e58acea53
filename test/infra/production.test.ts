// What a production team relies on, read off the templates of the app the CLI builds: the stage's committed
// configuration, safe deployments, capacity, data safety, and the review's defects (each named in its test).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stageConfig, stageFile } from '../../infra/config.js';
import { PROJECT_ROOT } from '../../infra/constructs/api-function.js';
import { AUTHORIZER_RATE_LIMITED_LOG } from '../../infra/stacks/api-stack.js';
import { AUTHORIZER, ROUTES, WORKERS } from '../../infra/routes.js';
import { App, type Stack } from 'aws-cdk-lib';
import { cleanOutdirs, cliApp, cliTemplates, computeTemplate, FUNCTION_COUNT, STAGE_SHAPES } from './cli-app.js';

// Routes and schedules that run on another's function (functionOf) have none of their own.
type Built = { stateful: Template; api: Template; workers: Template; compute: Template; resourceCounts: Record<string, number> };
let prod: Built & { terminationProtection: boolean[] };
let dev: Built & { terminationProtection: boolean[] };
let full: Built;

const cliTemplatesOf = (stack: Stack) => Template.fromStack(stack);
afterAll(cleanOutdirs);
beforeAll(() => {
  const build = (context: Record<string, string>, stage: string, region = 'us-east-1') => {
    const { app, stage: built } = cliApp(context, { stage, region });
    const assembly = app.synth();
    const stacks = [built.stateful, built.api, built.workers];
    const api = cliTemplatesOf(built.api);
    const workers = cliTemplatesOf(built.workers);
    return {
      stateful: cliTemplatesOf(built.stateful),
      api,
      workers,
      compute: computeTemplate(api, workers),
      resourceCounts: Object.fromEntries(stacks.map((s) => [s.stackName, Object.keys((assembly.getStackByName(s.stackName).template as { Resources: object }).Resources).length])),
      terminationProtection: stacks.map((s) => assembly.getStackByName(s.stackName).terminationProtection ?? false),
    };
  };
  // The README's production command: only alarmEmail on the command line, the rest from infra/stages/prod.json.
  prod = build({ alarmEmail: 'ops@example.com' }, 'prod');
  dev = build({}, 'dev');
  const shape = STAGE_SHAPES.find((s) => s.context.providers)!;
  full = build(shape.context, shape.stage, shape.region);
}, 300_000);

const resources = (t: Template, type: string) => Object.entries(t.findResources(type));

describe('per-stage configuration (infra/stages/*.json)', () => {
  it('keeps the WAF, the customer-managed key, termination protection and canaries in prod without any -c flag', () => {
    expect(stageFile('prod')).toMatchObject({ waf: true, customerManagedKey: true, terminationProtection: true, canaryDeployments: true });
    prod.api.resourceCountIs('AWS::WAFv2::WebACL', 1);
    prod.stateful.hasResourceProperties('AWS::DynamoDB::Table', { SSESpecification: Match.objectLike({ SSEType: 'KMS' }) });
    expect(prod.terminationProtection).toEqual([true, true, true]);
    expect(dev.terminationProtection).toEqual([false, false, false]);
  });

  it('refuses a production stage with nowhere to send alarms, and a stage file with an unknown key', () => {
    expect(() => stageConfig(new App({ context: { stage: 'prod' } }).node)).toThrow(/needs alarmEmail/);
    expect(stageConfig(new App({ context: { stage: 'prod', alarmEmail: 'none' } }).node).alarmEmail).toBeUndefined();
    expect(() => stageFile('typo', join(import.meta.dirname, '..', 'fixtures', 'stages'))).toThrow(/unknown key\(s\) wafs/);
  });

  it('lets the command line override the committed file (an explicit choice, never a silent one)', () => {
    expect(stageConfig(new App({ context: { stage: 'prod', alarmEmail: 'none', waf: 'false' } }).node).waf).toBe(false);
    expect(stageConfig(new App({ context: { stage: 'prod', alarmEmail: 'none' } }).node).waf).toBe(true);
  });
});

describe('safe deployments', () => {
  it('publishes every function as a version behind a live alias, which API Gateway, the authorizer, queues and rules invoke', () => {
    expect(resources(prod.compute, 'AWS::Lambda::Alias').filter(([, a]) => a.Properties.Name === 'live')).toHaveLength(FUNCTION_COUNT);
    for (const [, method] of resources(prod.api, 'AWS::ApiGateway::Method')) {
      const uri = JSON.stringify(method.Properties.Integration?.Uri ?? '');
      if (uri) expect(uri).toMatch(/FunctionLiveAlias|Live[0-9A-F]{8}/);
    }
    const [, authorizer] = resources(prod.api, 'AWS::ApiGateway::Authorizer')[0]!;
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toMatch(/Live[0-9A-F]{8}/);
    expect(resources(prod.workers, 'AWS::Lambda::EventSourceMapping').length).toBeGreaterThan(0);
    for (const [, mapping] of resources(prod.workers, 'AWS::Lambda::EventSourceMapping')) expect(JSON.stringify(mapping.Properties.FunctionName)).toMatch(/Live[0-9A-F]{8}/);
    for (const [, rule] of resources(prod.workers, 'AWS::Events::Rule')) expect(JSON.stringify(rule.Properties.Targets[0].Arn)).toMatch(/Live[0-9A-F]{8}/);
  });

  it('shifts 10% of traffic for 5 minutes first in prod, rolling back on the function\'s errors (an API function also on the API\'s 5xx or latency)', () => {
    expect(resources(prod.compute, 'AWS::CodeDeploy::DeploymentGroup')).toHaveLength(FUNCTION_COUNT);
    for (const [stack, apiAlarms] of [[prod.api, true], [prod.workers, false]] as const) {
      for (const [, group] of resources(stack, 'AWS::CodeDeploy::DeploymentGroup')) {
        expect(group.Properties.DeploymentConfigName).toBe('CodeDeployDefault.LambdaCanary10Percent5Minutes');
        expect(group.Properties.AutoRollbackConfiguration).toMatchObject({ Enabled: true, Events: expect.arrayContaining(['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM']) });
        const alarms = JSON.stringify(group.Properties.AlarmConfiguration.Alarms);
        expect(alarms).toMatch(/Errors/);
        expect(/Api5xx/.test(alarms) && /ApiLatencyP99/.test(alarms)).toBe(apiAlarms);
      }
      // Each alias and its deployment group live in one stack (the alias's update policy names the group).
      for (const [, alias] of resources(stack, 'AWS::Lambda::Alias')) expect(JSON.stringify(alias.UpdatePolicy?.CodeDeployLambdaAliasUpdate)).toMatch(/"Ref":"[A-Za-z0-9]+Deployment[0-9A-F]{8}"/);
    }
    dev.compute.resourceCountIs('AWS::CodeDeploy::DeploymentGroup', 0);
  });

  it('keeps every stack far from CloudFormation\'s 500 resources, in every stage shape', () => {
    for (const built of [prod, dev, full]) for (const [stack, count] of Object.entries(built.resourceCounts)) expect(count, stack).toBeLessThan(450);
  });
});

describe('capacity', () => {
  const fn = (t: Template, id: string) => resources(t, 'AWS::Lambda::Function').find(([logical]) => logical.startsWith(id) && !logical.includes('Logs'))![1];

  it('reserves the authorizer\'s concurrency and caps searches, bulk and upload-landed workers from the configuration', () => {
    const config = stageFile('prod') as Record<string, number>;
    expect(fn(prod.api, AUTHORIZER.id).Properties.ReservedConcurrentExecutions).toBe(config.authorizerReservedConcurrency);
    expect(fn(prod.api, 'SearchFunction').Properties.ReservedConcurrentExecutions).toBe(config.searchMaxConcurrency);
    expect(fn(prod.workers, `Bulk${WORKERS.uploadLanded.id}`).Properties.ReservedConcurrentExecutions).toBe(config.uploadLandedMaxConcurrency);
    const bulk = resources(prod.workers, 'AWS::Lambda::EventSourceMapping').find(([, m]) => JSON.stringify(m.Properties.FunctionName).includes(WORKERS.bulkDomain.id))![1];
    expect(bulk.Properties.ScalingConfig.MaximumConcurrency).toBe(config.bulkMaxConcurrency);
    // Dev reserves nothing: a new account's concurrency quota (10) could not spare it.
    expect(fn(dev.api, AUTHORIZER.id).Properties.ReservedConcurrentExecutions).toBeUndefined();
    const { stage } = cliApp({ alarmEmail: 'none', searchMaxConcurrency: '150' }, { stage: 'prod' });
    expect(stage.config.capacity.searchMaxConcurrency).toBe(150);
    expect(() => cliApp({ alarmEmail: 'none', searchMaxConcurrency: '900' }, { stage: 'prod' })).toThrow(/unreserved/);
  });

  it('caps the table\'s on-demand throughput from the configuration, and pre-warms it when asked', () => {
    const config = stageFile('prod') as Record<string, number>;
    prod.stateful.hasResourceProperties('AWS::DynamoDB::Table', {
      OnDemandThroughput: { MaxReadRequestUnits: config.tableMaxReadRequestUnits, MaxWriteRequestUnits: config.tableMaxWriteRequestUnits },
      GlobalSecondaryIndexes: [Match.objectLike({ OnDemandThroughput: { MaxReadRequestUnits: config.tableMaxReadRequestUnits, MaxWriteRequestUnits: config.tableMaxWriteRequestUnits } })],
    });
    const warm = cliTemplates({ alarmEmail: 'none', tableWarmReadUnitsPerSecond: '15000', tableWarmWriteUnitsPerSecond: '5000' }, { stage: 'prod' });
    warm.stateful.hasResourceProperties('AWS::DynamoDB::Table', { WarmThroughput: { ReadUnitsPerSecond: 15000, WriteUnitsPerSecond: 5000 } });
  }, 120_000);
});

describe('data safety', () => {
  it('backs the table up daily, keeps 35 days, and copies to another region\'s vault when configured', () => {
    prod.stateful.hasResourceProperties('AWS::Backup::BackupPlan', {
      BackupPlan: { BackupPlanRule: [Match.objectLike({ ScheduleExpression: 'cron(0 3 * * ? *)', Lifecycle: { DeleteAfterDays: 35 } })] },
    });
    expect(JSON.stringify(prod.stateful.findResources('AWS::Backup::BackupSelection'))).toMatch(/Table/);
    full.stateful.hasResourceProperties('AWS::Backup::BackupPlan', {
      BackupPlan: { BackupPlanRule: [Match.objectLike({ CopyActions: [{ DestinationBackupVaultArn: 'arn:aws:backup:eu-central-1:123456789012:backup-vault:rivals-copies', Lifecycle: { DeleteAfterDays: 35 } }] })] },
    });
    dev.stateful.resourceCountIs('AWS::Backup::BackupPlan', 0);
  });

  it('points the stage at a restored table through its configuration (the README\'s restore runbook, step 3)', () => {
    const restored = cliTemplates({ alarmEmail: 'none', tableName: 'rivals-prod-restored-20261128' }, { stage: 'prod' });
    expect(restored.api.findOutputs('TableName')).toMatchObject({ TableName: { Value: 'rivals-prod-restored-20261128' } });
    const functions = Object.values(restored.compute.findResources('AWS::Lambda::Function')).filter((f) => f.Properties.Environment?.Variables?.TABLE_NAME);
    expect(functions.length).toBe(FUNCTION_COUNT);
    for (const f of functions) expect(f.Properties.Environment.Variables.TABLE_NAME).toBe('rivals-prod-restored-20261128');
    expect(JSON.stringify(restored.stateful.findResources('AWS::Backup::BackupSelection'))).toContain('table/rivals-prod-restored-20261128');
    // The stack's own table is kept, with deletion protection.
    restored.stateful.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', Properties: Match.objectLike({ DeletionProtectionEnabled: true }) });
  }, 120_000);

  it('notifies the alarm topic and the alarm address from an AWS Budgets budget when monthlyBudgetUsd is set', () => {
    const [, budget] = resources(prod.api, 'AWS::Budgets::Budget')[0]!;
    expect(budget.Properties.Budget).toMatchObject({ BudgetType: 'COST', TimeUnit: 'MONTHLY', BudgetLimit: { Amount: (stageFile('prod') as Record<string, number>).monthlyBudgetUsd, Unit: 'USD' } });
    const subscribers = JSON.stringify(budget.Properties.NotificationsWithSubscribers);
    expect(subscribers).toContain('ops@example.com');
    expect(subscribers).toMatch(/SNS/);
    prod.api.hasResourceProperties('AWS::SNS::TopicPolicy', { PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: 'budgets.amazonaws.com' } })]) } });
    dev.api.resourceCountIs('AWS::Budgets::Budget', 0);
  });
});

describe('defects from the review', () => {
  it('grants the providers\' secret by grantRead: a secret named as the README allows matches its full ARN', () => {
    const statements = resources(full.compute, 'AWS::IAM::Policy').flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    const secretReads = statements.filter((s) => [s.Action].flat().includes('secretsmanager:GetSecretValue') && JSON.stringify(s.Resource).includes('rivals/providers'));
    expect(secretReads).toHaveLength(4); // the search and look-alike functions, the bulk domain and monitor workers
    for (const s of secretReads) expect(JSON.stringify(s.Resource)).toContain(':secret:rivals/providers-??????');
  });

  it('does not count the authorizer\'s deliberate rate-limit refusals as errors in its alarm', () => {
    // The authorizer logs this line when it refuses (functions/authorizer/api-key.ts): the filter counts it.
    expect(readFileSync(join(PROJECT_ROOT, AUTHORIZER.entry), 'utf8')).toContain(`'${AUTHORIZER_RATE_LIMITED_LOG}'`);
    prod.api.hasResourceProperties('AWS::Logs::MetricFilter', { FilterPattern: `{ $.message = "${AUTHORIZER_RATE_LIMITED_LOG}" }`, MetricTransformations: [Match.objectLike({ MetricName: 'AuthorizerRateLimited' })] });
    const [, alarm] = resources(prod.api, 'AWS::CloudWatch::Alarm').find(([id]) => id.includes(`${AUTHORIZER.id}Errors`))!;
    const expression = alarm.Properties.Metrics.find((m: { Expression?: string }) => m.Expression);
    expect(expression.Expression).toBe('MAX([0, errors - deliberate])');
    expect(JSON.stringify(alarm.Properties.Metrics)).toContain('AuthorizerRateLimited');
  });

  it('gives the EventBridge -> upload-landed target a dead-letter queue, alarmed on', () => {
    const [, rule] = resources(prod.workers, 'AWS::Events::Rule').find(([, r]) => r.Properties.EventPattern?.source?.includes('aws.s3'))!;
    expect(JSON.stringify(rule.Properties.Targets[0].DeadLetterConfig)).toContain('UploadLandedDeadLetterQueue');
    expect(rule.Properties.Targets[0].RetryPolicy).toMatchObject({ MaximumRetryAttempts: 3 });
    const dlqAlarms = resources(prod.workers, 'AWS::CloudWatch::Alarm').filter(([id]) => id.includes('DeadLetters'));
    expect(dlqAlarms).toHaveLength(5); // bulk, webhook, aggregate, monitor, upload-landed events
  });

  it('alarms on the age of the oldest message of every work queue', () => {
    const ages = resources(prod.workers, 'AWS::CloudWatch::Alarm').filter(([, a]) => a.Properties.MetricName === 'ApproximateAgeOfOldestMessage');
    const queues = ages.map(([id]) => id.replace(/Observability|OldestMessage.*/g, '')).sort();
    // The work queues page on a backlog; the dead-letter queues (their own age alarms, test/infra/stacks.test.ts) on a
    // dead letter the sweeper's re-drive has not drained.
    expect(queues.filter((q) => !/DeadLetter/.test(q))).toEqual(['AggregateQueue', 'BulkQueue', 'MonitorQueue', 'WebhookQueue']);
  });

  it('gives every log group retention, CDK\'s own handlers\' included, and points every function at one', () => {
    for (const t of [prod.stateful, prod.api, prod.workers, dev.stateful, dev.api, dev.workers]) {
      for (const [id, group] of resources(t, 'AWS::Logs::LogGroup')) expect(group.Properties.RetentionInDays, id).toBeGreaterThan(0);
      for (const [id, fn] of resources(t, 'AWS::Lambda::Function')) expect(fn.Properties.LoggingConfig?.LogGroup, id).toBeDefined();
    }
  });

  it('states the alarm count and the at-rest cost the templates have (README)', () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const count = (t: Template) => Object.keys(t.findResources('AWS::CloudWatch::Alarm')).length;
    const stated = readme.match(/\*\*At rest\*\*[^\n]*?(\d+) CloudWatch alarms/);
    expect(stated, 'README states the alarm count').not.toBeNull();
    expect(Number(stated![1])).toBe(count(prod.compute));
    expect(count(dev.compute)).toBe(count(prod.compute));
    // CloudWatch bills $0.10 a month per metric an alarm analyses (a metric-math alarm pays for each of its metrics).
    const metrics = Object.values(prod.compute.findResources('AWS::CloudWatch::Alarm')).reduce(
      (n, a) => n + (a.Properties.Metrics ? a.Properties.Metrics.filter((m: { MetricStat?: unknown }) => m.MetricStat).length : 1),
      0,
    );
    const cost = readme.match(/CloudWatch alarms \(\$(\d+(?:\.\d+)?)[):]/);
    expect(Number(cost![1])).toBeCloseTo(metrics * 0.1, 2);
  });
});

describe('the client\'s address behind CloudFront', () => {
  it('sends the origin secret from CloudFront (resolved at deploy, never in the template) and makes it part of the authorizer\'s cache key', () => {
    const [, distribution] = resources(prod.api, 'AWS::CloudFront::Distribution')[0]!;
    const apiOrigin = distribution.Properties.DistributionConfig.Origins.find((o: { CustomOriginConfig?: unknown }) => o.CustomOriginConfig);
    const headers = Object.fromEntries(apiOrigin.OriginCustomHeaders.map((h: { HeaderName: string; HeaderValue: unknown }) => [h.HeaderName, JSON.stringify(h.HeaderValue)]));
    expect(headers['x-origin-verify']).toMatch(/\{\{resolve:secretsmanager:.*OriginSecret/);
    expect(headers['x-origin-verify-version']).toBe('"1"');
    prod.api.hasResourceProperties('AWS::ApiGateway::Authorizer', { IdentitySource: 'method.request.header.X-API-Key,method.request.header.x-origin-verify' });
    // Every HTTP function and the authorizer know the secret; the workers do not.
    const withSecret = resources(prod.api, 'AWS::Lambda::Function').filter(([, f]) => f.Properties.Environment?.Variables?.ORIGIN_SECRET_ARN);
    expect(withSecret).toHaveLength(ROUTES.filter((r) => !r.functionOf).length + 1);
    expect(Object.keys(prod.api.findOutputs('*'))).toEqual(expect.arrayContaining(['ApiUrl', 'DashboardUrl', 'OriginSecretArn']));
    expect(JSON.stringify(prod.api.findOutputs('ApiUrl'))).toContain('Distribution');
  });

  it('puts the WAF\'s per-IP rule on the viewer address CloudFront\'s function writes, which a client cannot forge', () => {
    prod.api.hasResourceProperties('AWS::WAFv2::WebACL', {
      Rules: Match.arrayWith([
        Match.objectLike({ Name: 'per-ip-rate', Statement: { RateBasedStatement: Match.objectLike({ AggregateKeyType: 'FORWARDED_IP', ForwardedIPConfig: { HeaderName: 'x-viewer-ip', FallbackBehavior: 'NO_MATCH' } }) } }),
      ]),
    });
    const code = resources(prod.api, 'AWS::CloudFront::Function').map(([, f]) => f.Properties.FunctionCode as string).find((c) => c.includes('x-viewer-ip'));
    expect(code).toContain('event.viewer.ip');
    const [, distribution] = resources(prod.api, 'AWS::CloudFront::Distribution')[0]!;
    const api = distribution.Properties.DistributionConfig.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/api/*');
    expect(api.FunctionAssociations).toHaveLength(1);
  });
});
