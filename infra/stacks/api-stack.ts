// infra: the REST API. One function per route of routes.ts, the X-API-Key REQUEST authorizer, and gateway responses
// that answer in the API's own error shape when API Gateway answers by itself (no key, bad key, unknown route).
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat, EndpointType, IdentitySource, LambdaIntegration, LogGroupLogDestination, MethodLoggingLevel, RequestAuthorizer, ResponseType, RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterPattern, LogGroup, MetricFilter, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config.js';
import { ApiFunction, PROJECT_ROOT, stageEnvironment } from '../constructs/api-function.js';
import { canaryDeployments } from '../constructs/canary-deployments.js';
import { join } from 'node:path';
import { METRICS_NAMESPACE, Observability } from '../constructs/observability.js';
import { VIEWER_IP_HEADER, WebFront } from '../constructs/web-front.js';
import { accessOf, AUTHORIZER, BINARY_MEDIA_TYPES, ENV, FLUSHES_AUTHORIZER_CACHE, RATE_LIMIT_PARTITION, ROUTES, type RouteSpec } from '../routes.js';
import { DASHBOARD_DIST } from '../web.js';
import { grantAggregate, grantBulk, grantWebhookSecretKey, type BulkResources } from './bulk-workers.js';

export interface ApiStackProps extends StackProps {
  table: ITable;
  bulk: Omit<BulkResources, 'table'>;
  config: StageConfig;
  version: string;
}

/** Bodies of API Gateway's own answers: the same shape as every error of the API (contracts/errors.ts). */
const errorTemplate = (code: string, message: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ error: { code, message, requestId: '$context.requestId', ...extra } });

/** What a gateway 429 asks a client to wait: API Gateway's limiter and the functions' whole-number rates refill within a second. */
const GATEWAY_RETRY_AFTER_SECONDS = 1;

/**
 * API Gateway's own answers, in the API's error shape. A response type with a fixed meaning gets its status; the two
 * defaults keep the status API Gateway chose (a 504 stays a 504), with a code that fits any status of their class.
 */
export const GATEWAY_ERRORS: { type: ResponseType; status?: string; code: string; message: string; extra?: Record<string, unknown> }[] = [
  // The authorizer throws (an error, which API Gateway never caches) when the key lookups of one IP are over the
  // limit, and API Gateway answers every authorizer error with this response. A Deny could be neither a 429 nor left
  // uncached (it would refuse the key for 60 s, from every address). So an authorizer that fails for another reason
  // (its table unreachable) is a 429 too: retryable, and visible in the authorizer's error metric and logs.
  {
    type: ResponseType.AUTHORIZER_CONFIGURATION_ERROR,
    status: '429',
    code: 'rate_limited',
    message: 'Too many requests from this address; slow down and retry after the Retry-After seconds.',
    extra: { retryAfterSeconds: GATEWAY_RETRY_AFTER_SECONDS },
  },
  { type: ResponseType.UNAUTHORIZED, status: '401', code: 'missing_api_key', message: 'Send your API key in the X-API-Key header.' },
  { type: ResponseType.ACCESS_DENIED, status: '401', code: 'invalid_api_key', message: 'The API key is not valid: it is unknown, malformed or revoked.' },
  { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, status: '404', code: 'not_found', message: 'No such route.' },
  { type: ResponseType.RESOURCE_NOT_FOUND, status: '404', code: 'not_found', message: 'No such route.' },
  { type: ResponseType.REQUEST_TOO_LARGE, status: '413', code: 'payload_too_large', message: 'The request body is too large.' },
  { type: ResponseType.UNSUPPORTED_MEDIA_TYPE, status: '415', code: 'unsupported_media_type', message: 'Unsupported content type.' },
  { type: ResponseType.THROTTLED, status: '429', code: 'rate_limited', message: 'Too many requests; slow down and retry.' },
  { type: ResponseType.QUOTA_EXCEEDED, status: '429', code: 'rate_limited', message: 'Too many requests; slow down and retry.' },
  { type: ResponseType.WAF_FILTERED, status: '403', code: 'forbidden', message: 'The request was refused by the firewall.' },
  { type: ResponseType.INTEGRATION_TIMEOUT, status: '504', code: 'research_timeout', message: 'The request took too long.' },
  { type: ResponseType.DEFAULT_4XX, code: 'invalid_request', message: 'The request could not be processed.' },
  { type: ResponseType.DEFAULT_5XX, code: 'internal_error', message: 'Something went wrong on our side.' },
];

/** Headers on every gateway answer: the request id (as on every Lambda answer) and the API's security headers. */
const GATEWAY_HEADERS = {
  'X-Request-Id': 'context.requestId',
  'X-Content-Type-Options': "'nosniff'",
  'Cache-Control': "'no-store'",
};

/** Access-log fields: who, what, how long, and what the integration and authorizer said. */
const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  httpMethod: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integration.error',
  errorMessage: '$context.error.message',
  errorType: '$context.error.responseType',
  authorizerError: '$context.authorizer.error',
  authorizerLatency: '$context.authorizer.latency',
  wafStatus: '$context.waf.status',
  userAgent: '$context.identity.userAgent',
};

/** Names shared with functions/shared/client-address.ts (infra never imports runtime code; a test checks they agree). */
export const ORIGIN_SECRET_ENV = 'ORIGIN_SECRET_ARN';
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/** What the authorizer logs (functions/authorizer/api-key.ts) when it refuses key lookups over the per-IP limit. */
export const AUTHORIZER_RATE_LIMITED_LOG = 'key lookups rate limited';

/** Reserved concurrency when configured (0 = none). */
const reserved = (n: number) => (n > 0 ? { reservedConcurrentExecutions: n } : {});

/** The dashboard's built files (packages/dashboard, built by Vite before every synth: cdk.json's build command). */
const DASHBOARD_DIR = join(PROJECT_ROOT, DASHBOARD_DIST);

export class ApiStack extends Stack {
  readonly api: RestApi;
  /** The routes' functions by route id (a route served by another route's function has none), and the authorizer. */
  readonly functions: Record<string, ApiFunction> = {};
  readonly web: WebFront;
  /** Where every alarm of the stage notifies (the workers' stack's too). */
  readonly alarmTopic: ITopic;
  /** The key webhook signing secrets are sealed with (the webhook sender, in the workers' stack, reads it too). */
  readonly webhookSecretKey: Secret;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { config } = props;
    const environment = stageEnvironment(config, props.version);
    const logRemoval = config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy: logRemoval });
    this.api = new RestApi(this, 'Api', {
      restApiName: `rivals-${config.stage}`,
      // Multipart uploads reach the functions as base64, byte for byte (routes.ts BINARY_MEDIA_TYPES).
      binaryMediaTypes: BINARY_MEDIA_TYPES,
      description: 'Rivals competitor-research API',
      endpointConfiguration: { types: [config.endpointType === 'EDGE' ? EndpointType.EDGE : EndpointType.REGIONAL] },
      deployOptions: {
        stageName: config.stage,
        tracingEnabled: true,
        // Execution logs need the account's API Gateway CloudWatch role, which only cloudWatchRole=true creates.
        ...(config.cloudWatchRole ? { loggingLevel: MethodLoggingLevel.ERROR } : {}),
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
        // Stage-wide backstop; the per-key and per-IP token buckets of docs/api.md live in the functions (DynamoDB).
        throttlingRateLimit: 200,
        throttlingBurstLimit: 400,
      },
      // Sets an account-wide API Gateway setting, so it is opt-in.
      cloudWatchRole: config.cloudWatchRole,
      disableExecuteApiEndpoint: false,
    });
    for (const { type, status, code, message, extra } of GATEWAY_ERRORS) {
      this.api.addGatewayResponse(`Gateway${type.responseType}`, {
        type,
        ...(status ? { statusCode: status } : {}),
        // A throttled client is told when to come back (API Gateway's own limiter refills within a second).
        responseHeaders: { ...GATEWAY_HEADERS, ...(status === '429' ? { 'Retry-After': `'${GATEWAY_RETRY_AFTER_SECONDS}'` } : {}) },
        templates: { 'application/json': errorTemplate(code, message, extra) },
      });
    }

    // CloudFront proves a request came through this stage's distribution with this secret header; the functions trust
    // CloudFront-Viewer-Address only then, and refuse requests without it (functions/shared/client-address.ts).
    const originSecret = new Secret(this, 'OriginSecret', {
      description: `Rivals ${config.stage}: the header CloudFront sends the API (rotate: README "The client's address")`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });

    // The authorizer reads a key's hash claim, its record and its account (GetItem, BatchGetItem; no index), takes
    // rate-limit tokens per IP, and records lastUsedAt on key records (in account partitions).
    // Its reserved concurrency is its alone: searches and bulk workers can never starve key checks.
    const authorizerFunction = new ApiFunction(this, AUTHORIZER.id, {
      entry: AUTHORIZER.entry,
      environment,
      retainLogs: config.retainData,
      memorySize: 256,
      ...reserved(config.capacity.authorizerReservedConcurrency),
    })
      .bindTable(props.table, 'read')
      .grantItemUpdates(props.table, [RATE_LIMIT_PARTITION, 'ACCOUNT#']);
    const authorizer = new RequestAuthorizer(this, 'KeyAuthorizer', {
      handler: authorizerFunction.live,
      // The origin header is part of the cache key: a denial for a wrong value is never reused for the key itself, and a
      // request without it (straight to execute-api) is refused by API Gateway before the authorizer runs.
      identitySources: [IdentitySource.header(AUTHORIZER.header), IdentitySource.header(ORIGIN_VERIFY_HEADER)],
      resultsCacheTtl: Duration.seconds(AUTHORIZER.cacheTtlSeconds),
    });

    // API Gateway invokes the live alias of the route's function. Without the console's test-invoke permission: one
    // Lambda permission per method is enough of CloudFormation's 500 resources a stack.
    const serve = (route: RouteSpec, fn: ApiFunction) =>
      this.api.root
        .resourceForPath(route.path)
        .addMethod(route.method, new LambdaIntegration(fn.live, { timeout: Duration.seconds(29), allowTestInvoke: false }), route.auth ? { authorizer } : {});
    for (const route of ROUTES) {
      const shared = route.functionOf ? this.functions[route.functionOf] : undefined;
      if (shared) {
        serve(route, shared);
        continue;
      }
      const fn = new ApiFunction(this, `${route.id}Function`, {
        entry: route.entry,
        knowledgeBase: route.knowledgeBase ?? false,
        environment,
        retainLogs: config.retainData,
        ...(route.memoryMb ? { memorySize: route.memoryMb } : {}),
        ...(route.timeoutSeconds ? { timeout: Duration.seconds(route.timeoutSeconds) } : {}),
        // Searches are capped (and guaranteed) by reserved concurrency: a flood of them cannot take the account's pool.
        ...(route.id === 'Search' ? reserved(config.capacity.searchMaxConcurrency) : {}),
      })
        .bindTable(props.table, accessOf(route), { indexes: route.indexes ?? [] })
        // Every route takes rate-limit tokens before any work, keyless ones included.
        .grantItemUpdates(props.table, [RATE_LIMIT_PARTITION]);
      if (route.path.startsWith('/api/bulk/') || route.id === 'WebhookSecret') grantBulk(fn, { table: props.table, ...props.bulk }, { uploads: route.id === 'BulkUploadUrl' });
      // A route that researches settles searches, and sends each to be counted in my-companies.
      if (route.searches) grantAggregate(fn, props.bulk.aggregateQueue);
      if (FLUSHES_AUTHORIZER_CACHE.includes(route.id)) this.allowAuthorizerCacheFlush(fn, config.stage);
      this.functions[route.id] = fn;
      if (route.searches) fn.enableProviders(config);
      serve(route, fn);
    }

    this.webhookSecretKey = this.sealWebhookSecrets(this.functions.WebhookSecret!, config.retainData);

    if (config.waf) this.firewall(config.wafRateLimit);

    this.functions[AUTHORIZER.id] = authorizerFunction;
    const observability = new Observability(this, 'Observability', {
      api: this.api,
      table: props.table,
      functions: this.functions,
      deliberateErrors: { [AUTHORIZER.id]: this.authorizerRefusals(authorizerFunction) },
      ...(config.alarmEmail ? { alarmEmail: config.alarmEmail } : {}),
      monthlyBudgetUsd: config.monthlyBudgetUsd,
    });
    this.alarmTopic = observability.topic;
    // A new version rolls back on its function's errors, or on the API's 5xx or latency.
    if (config.canaryDeployments) canaryDeployments(this, 'Deployments', `rivals-${config.stage}`, this.functions, (name) => [observability.errorAlarms[name]!, ...observability.apiAlarms]);
    for (const fn of Object.values(this.functions)) {
      fn.addEnvironment(ORIGIN_SECRET_ENV, originSecret.secretArn);
      originSecret.grantRead(fn);
    }
    this.web = new WebFront(this, 'Web', {
      api: this.api,
      origin: { header: ORIGIN_VERIFY_HEADER, secret: originSecret, version: config.originSecretVersion },
      dashboardDir: DASHBOARD_DIR,
      retainData: config.retainData,
      uploadsOrigin: `https://${props.bulk.uploads.bucketRegionalDomainName}`,
      ...(config.domainName ? { domainName: config.domainName, certificateArn: config.certificateArn! } : {}),
    });
    // The API is reached through CloudFront (same origin as the dashboard): its execute-api address refuses requests.
    new CfnOutput(this, 'ApiUrl', { value: this.web.url, description: 'Base address of the API (append api/v1/...)' });
    new CfnOutput(this, 'OriginSecretArn', { value: originSecret.secretArn, description: 'The secret CloudFront sends the API (rotation: see the README)' });
    new CfnOutput(this, 'TableName', { value: props.table.tableName, description: 'The single table (for the operator command)' });
    new CfnOutput(this, 'RestApiId', { value: this.api.restApiId, description: 'The REST API whose authorizer cache key revocations empty (for the operator command)' });
    new CfnOutput(this, 'AlarmTopicArn', { value: observability.topic.topicArn, description: 'SNS topic the alarms notify' });
  }

  /**
   * Webhook signing secrets are stored sealed (AES-256-GCM, packages/core/src/sealing.ts) under a key generated here
   * and kept in Secrets Manager, readable only by the function that rotates secrets and the one that signs deliveries:
   * a copy of the table alone holds no usable secret. Kept with the data when the stage retains its data.
   */
  private sealWebhookSecrets(rotator: ApiFunction, retainData: boolean): Secret {
    const key = new Secret(this, 'WebhookSecretKey', {
      description: 'Rivals: the key webhook signing secrets are sealed with',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    grantWebhookSecretKey(rotator, key);
    return key;
  }

  /**
   * The authorizer refuses too many key lookups from one address by throwing (so API Gateway answers 429 and caches
   * nothing): deliberate, and counted here from its log line, so that its error alarm counts only real failures.
   */
  private authorizerRefusals(fn: ApiFunction): IMetric {
    const filter = new MetricFilter(this, 'AuthorizerRateLimited', {
      logGroup: fn.logs,
      filterPattern: FilterPattern.stringValue('$.message', '=', AUTHORIZER_RATE_LIMITED_LOG),
      metricNamespace: METRICS_NAMESPACE,
      metricName: 'AuthorizerRateLimited',
      metricValue: '1',
    });
    return filter.metric({ period: Duration.minutes(5), statistic: 'Sum' });
  }

  /**
   * A revoked key is refused on its next request: the function that revokes empties this stage's authorizer cache
   * (FlushStageAuthorizersCache is apigateway:DELETE on the stage's cache/authorizers; nothing else is granted).
   */
  private allowAuthorizerCacheFlush(fn: ApiFunction, stage: string) {
    fn.addEnvironment(ENV.restApiId, this.api.restApiId);
    fn.addEnvironment(ENV.apiStage, stage);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['apigateway:DELETE'],
        resources: [Stack.of(this).formatArn({ service: 'apigateway', account: '', resource: `/restapis/${this.api.restApiId}/stages/${stage}/cache/authorizers` })],
      }),
    );
  }

  /** A web ACL on the API stage: a per-IP rate rule (a blunt backstop above the functions' own limiters) and AWS's common rule set. */
  private firewall(limitPer5Minutes: number) {
    const rule = (name: string, priority: number, body: Partial<CfnWebACL.RuleProperty>): CfnWebACL.RuleProperty => ({
      name,
      priority,
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: name, sampledRequestsEnabled: true },
      ...body,
    } as CfnWebACL.RuleProperty);
    const acl = new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: 'rivals-api', sampledRequestsEnabled: true },
      rules: [
        // Per viewer: behind CloudFront the peer is a CloudFront server, so the rule counts the viewer address that
        // CloudFront's function writes into X-Viewer-Ip (overwriting any the client sent). Requests without it (straight
        // to execute-api) are refused by the functions for want of the origin secret.
        rule('per-ip-rate', 0, {
          action: { block: {} },
          statement: { rateBasedStatement: { limit: limitPer5Minutes, aggregateKeyType: 'FORWARDED_IP', forwardedIpConfig: { headerName: VIEWER_IP_HEADER, fallbackBehavior: 'NO_MATCH' } } },
        }),
        // The common rule set blocks bodies over 8 KB; CSV uploads are up to 5 MB, and the API bounds bodies itself.
        rule('aws-common', 1, {
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesCommonRuleSet', ruleActionOverrides: [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }] },
          },
        }),
      ],
    });
    new CfnWebACLAssociation(this, 'WebAclAssociation', { resourceArn: this.api.deploymentStage.stageArn, webAclArn: acl.attrArn });
  }
}
