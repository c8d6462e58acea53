// infra: the REST API. One function per route of routes.ts, the X-API-Key REQUEST authorizer, and gateway responses
// that answer in the API's own error shape when API Gateway answers by itself (no key, bad key, unknown route).
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat, IdentitySource, LambdaIntegration, LogGroupLogDestination, MethodLoggingLevel, RequestAuthorizer, ResponseType, RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ApiFunction } from '../constructs/api-function.js';
import { AUTHORIZER, ENV, ROUTES, SCHEDULED } from '../routes.js';

export interface ApiStackProps extends StackProps {
  table: ITable;
  stageName: string;
  freeCredits: number;
  version: string;
  /** The dashboard's origin, for absolute share links (CDK context `publicBaseUrl`). */
  publicBaseUrl?: string;
}

/** Bodies of API Gateway's own answers: the same shape as every error of the API (contracts/errors.ts). */
const errorTemplate = (code: string, message: string) =>
  JSON.stringify({ error: { code, message, requestId: '$context.requestId' } });

export const GATEWAY_ERRORS: { type: ResponseType; status: string; code: string; message: string }[] = [
  { type: ResponseType.UNAUTHORIZED, status: '401', code: 'missing_api_key', message: 'Send your API key in the X-API-Key header.' },
  { type: ResponseType.ACCESS_DENIED, status: '401', code: 'invalid_api_key', message: 'The API key is not valid: it is unknown, malformed or revoked.' },
  { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, status: '404', code: 'not_found', message: 'No such route.' },
  { type: ResponseType.RESOURCE_NOT_FOUND, status: '404', code: 'not_found', message: 'No such route.' },
  { type: ResponseType.REQUEST_TOO_LARGE, status: '413', code: 'payload_too_large', message: 'The request body is too large.' },
  { type: ResponseType.UNSUPPORTED_MEDIA_TYPE, status: '415', code: 'unsupported_media_type', message: 'Unsupported content type.' },
  { type: ResponseType.THROTTLED, status: '429', code: 'rate_limited', message: 'Too many requests; slow down and retry.' },
  { type: ResponseType.INTEGRATION_TIMEOUT, status: '504', code: 'research_timeout', message: 'The request took too long.' },
  { type: ResponseType.DEFAULT_4XX, status: '400', code: 'invalid_request', message: 'The request could not be processed.' },
  { type: ResponseType.DEFAULT_5XX, status: '500', code: 'internal_error', message: 'Something went wrong on our side.' },
];

export class ApiStack extends Stack {
  readonly api: RestApi;
  readonly functions: Record<string, ApiFunction> = {};

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const environment = {
      [ENV.freeCredits]: String(props.freeCredits),
      [ENV.deadline]: '25000',
      [ENV.version]: props.version,
      ...(props.publicBaseUrl ? { [ENV.publicBaseUrl]: props.publicBaseUrl } : {}),
    };

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH });
    this.api = new RestApi(this, 'Api', {
      restApiName: `rivals-${props.stageName}`,
      description: 'Rivals competitor-research API',
      deployOptions: {
        stageName: props.stageName,
        tracingEnabled: true,
        loggingLevel: MethodLoggingLevel.ERROR,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
        // Stage-wide backstop; the per-key and per-IP limiters of API.md live in the functions.
        throttlingRateLimit: 200,
        throttlingBurstLimit: 400,
      },
      cloudWatchRole: true,
    });
    for (const { type, status, code, message } of GATEWAY_ERRORS) {
      this.api.addGatewayResponse(`Gateway${type.responseType}`, {
        type,
        statusCode: status,
        templates: { 'application/json': errorTemplate(code, message) },
      });
    }

    const authorizerFunction = new ApiFunction(this, AUTHORIZER.id, { entry: AUTHORIZER.entry, environment, memorySize: 256 }).bindTable(props.table, 'read');
    const authorizer = new RequestAuthorizer(this, 'KeyAuthorizer', {
      handler: authorizerFunction,
      identitySources: [IdentitySource.header(AUTHORIZER.header)],
      resultsCacheTtl: Duration.seconds(AUTHORIZER.cacheTtlSeconds),
    });

    for (const route of ROUTES) {
      const fn = new ApiFunction(this, `${route.id}Function`, {
        entry: route.entry,
        knowledgeBase: route.knowledgeBase ?? false,
        environment,
        ...(route.memoryMb ? { memorySize: route.memoryMb } : {}),
        ...(route.timeoutSeconds ? { timeout: Duration.seconds(route.timeoutSeconds) } : {}),
      }).bindTable(props.table, 'readwrite');
      this.functions[route.id] = fn;
      const resource = this.api.root.resourceForPath(route.path);
      resource.addMethod(route.method, new LambdaIntegration(fn, { timeout: Duration.seconds(29) }), route.auth ? { authorizer } : {});
    }

    for (const job of SCHEDULED) {
      const fn = new ApiFunction(this, `${job.id}Function`, { entry: job.entry, environment, timeout: Duration.seconds(job.timeoutSeconds) }).bindTable(props.table, 'readwrite');
      this.functions[job.id] = fn;
      new Rule(this, `${job.id}Schedule`, { schedule: Schedule.rate(Duration.minutes(job.everyMinutes)), targets: [new LambdaFunction(fn, { retryAttempts: 0 })] });
    }
  }
}
