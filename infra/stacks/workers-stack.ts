// infra: the stage's background work, in a stack of its own (the API stack keeps CloudFormation's 500-resource limit
// far off, and each deploys what changed): the queue workers (bulk domains, landed uploads, webhooks, my-companies
// counts, watchlist monitoring), the scheduled jobs (the sweeper, the monitor's tick), their alarms and canaries, and the
// stage's one operations dashboard. It depends on the stateful stack (table, bucket, queues) and on the API stack
// (the alarm topic, the webhook sealing key, the API's metrics on the dashboard); nothing depends on it.
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config.js';
import { ApiFunction, stageEnvironment } from '../constructs/api-function.js';
import { canaryDeployments } from '../constructs/canary-deployments.js';
import { Observability, OperationsDashboard } from '../constructs/observability.js';
import { ENV, REDRIVE_AFTER_SECONDS, SCHEDULED, SWEEPER, WORKERS } from '../routes.js';
import { BulkWorkers, grantBulk, grantMonitor, grantRedrive, grantWebhookSecretKey, type BulkResources } from './bulk-workers.js';

export interface WorkersStackProps extends StackProps {
  table: ITable;
  bulk: Omit<BulkResources, 'table'>;
  /** Dead-letter queues the sweeper drains and re-drives (their messages name work the table still shows unfinished). */
  redrivenDeadLetterQueues: IQueue[];
  /** Dead-letter queues only alarmed on (the monitor's: the next run checks a company again). */
  otherDeadLetterQueues: IQueue[];
  /** Work queues whose oldest message must not grow older than `maxAgeMinutes`. */
  queues: { name: string; queue: IQueue; maxAgeMinutes: number }[];
  /** Of the API stack: where alarms notify, the webhook sealing key, and the API and its functions (for the dashboard). */
  alarmTopic: ITopic;
  webhookSecretKey: ISecret;
  api: RestApi;
  apiFunctions: Record<string, ApiFunction>;
  config: StageConfig;
  version: string;
}

export class WorkersStack extends Stack {
  /** The queue workers and scheduled jobs by id. */
  readonly functions: Record<string, ApiFunction> = {};
  readonly bulk: BulkWorkers;

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, props);
    const { config } = props;
    const environment = stageEnvironment(config, props.version);
    const resources = { table: props.table, ...props.bulk };

    this.bulk = new BulkWorkers(this, 'Bulk', { ...resources, environment, retainLogs: config.retainData, capacity: config.capacity });
    Object.assign(this.functions, this.bulk.functions);
    // The bulk and monitor workers research with the same engine as a search, so with the same providers.
    this.functions[WORKERS.bulkDomain.id]!.enableProviders(config);
    const monitor = this.functions[WORKERS.monitor.id]!.enableProviders(config);
    // The monitor's hourly tick runs on the monitor worker's function: it starts runs and sends their companies to the queue.
    grantMonitor(monitor, props.bulk.monitorQueue);
    monitor.addEnvironment(ENV.monitorEveryHours, String(config.monitorEveryHours));
    grantWebhookSecretKey(this.functions[WORKERS.webhookSender.id]!, props.webhookSecretKey);

    for (const job of SCHEDULED) {
      let fn = job.functionOf ? this.functions[job.functionOf] : undefined;
      if (!fn) {
        fn = new ApiFunction(this, `${job.id}Function`, {
          entry: job.entry,
          environment,
          retainLogs: config.retainData,
          timeout: Duration.seconds(job.timeoutSeconds),
        }).bindTable(props.table, 'write', { indexes: job.indexes ?? [] });
        grantBulk(fn, resources); // the sweeper also sweeps bulk domains
        grantRedrive(fn, props.redrivenDeadLetterQueues, props.bulk.aggregateQueue); // and re-drives lost and dead-lettered work
        this.functions[job.id] = fn;
      }
      new Rule(this, `${job.id}Schedule`, { schedule: Schedule.rate(Duration.minutes(job.everyMinutes)), targets: [new LambdaFunction(fn.live, { retryAttempts: 0 })] });
    }

    const deadLetterQueues = [...props.redrivenDeadLetterQueues, ...props.otherDeadLetterQueues, ...this.bulk.deadLetterQueues];
    const observability = new Observability(this, 'Observability', {
      topic: props.alarmTopic,
      functions: this.functions,
      deadLetterQueues,
      queues: props.queues,
      // The sweeper drains them every few minutes: a dead letter older than the re-drive window and one period is stuck.
      redrivenDeadLetters: { queues: props.redrivenDeadLetterQueues, maxAgeSeconds: REDRIVE_AFTER_SECONDS + SWEEPER.everyMinutes * 60 },
      sweeperRefunds: true,
    });
    // A new worker version rolls back on its own errors (the API's alarms say nothing of background work).
    if (config.canaryDeployments) canaryDeployments(this, 'WorkerDeployments', `rivals-${config.stage}-workers`, this.functions, (name) => [observability.errorAlarms[name]!]);
    new OperationsDashboard(this, 'Operations', { api: props.api, table: props.table, functions: { ...props.apiFunctions, ...this.functions }, deadLetterQueues });
  }
}
