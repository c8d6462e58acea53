// composition root: one logger for every function (Powertools), created once per container.
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: 'rivals', logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? 'INFO' });
