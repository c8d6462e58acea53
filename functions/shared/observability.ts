// composition root: one logger for every function (Powertools), created once per container. Its correlation id is
// API Gateway's request id, which is also the X-Request-Id every response carries.
import { Logger } from '@aws-lambda-powertools/logger';
import { correlationPaths, search } from '@aws-lambda-powertools/logger/correlationId';

export const logger = new Logger({
  serviceName: 'rivals',
  logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? 'INFO',
  correlationIdSearchFn: search,
});

export const CORRELATION_ID_PATH = correlationPaths.API_GATEWAY_REST;
