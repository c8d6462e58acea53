// composition root: one logger, one metrics and one tracer instance for every function (Powertools), created once per container. Its correlation id is
// API Gateway's request id, which is also the X-Request-Id every response carries.
import { Logger } from '@aws-lambda-powertools/logger';
import { correlationPaths, search } from '@aws-lambda-powertools/logger/correlationId';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';

export const logger = new Logger({
  serviceName: 'rivals',
  logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? 'INFO',
  correlationIdSearchFn: search,
});

export const CORRELATION_ID_PATH = correlationPaths.API_GATEWAY_REST;

/** One metrics instance for every function (CloudWatch embedded metric format), namespace Rivals. */
export const metrics = new Metrics({ namespace: 'Rivals', serviceName: 'rivals' });

/** X-Ray tracing of every function and of its AWS SDK calls; a no-op outside Lambda. */
export const tracer = new Tracer({ serviceName: 'rivals' });

/**
 * A queue, bucket or schedule worker's handler with its own X-Ray segment per invocation, as the HTTP chain has
 * (functions/shared/http.ts); the AWS SDK calls it makes are traced under it. A no-op outside Lambda.
 */
export const traced = <Event, Result>(handler: (event: Event, context: Context) => Promise<Result>) =>
  middy<Event, Result>().use(captureLambdaHandler(tracer, { captureResponse: false })).handler(handler);
