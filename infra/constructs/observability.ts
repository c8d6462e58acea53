// infra: alarms to an SNS topic (with an optional email subscription) and a CloudWatch dashboard: what an operator
// needs to see that the API answers, that functions, queues and the table are healthy, and that credits are not stuck.
// Each stack alarms on its own resources (an alarm lives with what it watches: a canary's rollback alarm must sit in
// its function's stack); every alarm notifies the one topic of the API stack; one dashboard shows the whole stage.
import { Duration, Stack } from 'aws-cdk-lib';
import { CfnBudget } from 'aws-cdk-lib/aws-budgets';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, Dashboard, GraphWidget, MathExpression, Metric, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Topic, type ITopic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

export interface ObservabilityProps {
  /** The topic alarms notify; without one, a topic of its own (with alarmEmail subscribed and the budget). */
  topic?: ITopic;
  /** The REST API: 5xx and latency alarms. */
  api?: RestApi;
  /** The table: a throttling alarm. */
  table?: ITable;
  /** Functions that each get an error and a throttling alarm. */
  functions: Record<string, IFunction>;
  /** Queues whose dead letters an operator must hear about. */
  deadLetterQueues?: IQueue[];
  /** Dead-letter queues the sweeper drains and re-drives: a dead letter older than `maxAgeSeconds` fires their age alarm. */
  redrivenDeadLetters?: { queues: IQueue[]; maxAgeSeconds: number };
  /** Work queues whose oldest message must not grow older than `maxAgeMinutes` (a stuck or starved consumer). */
  queues?: { name: string; queue: IQueue; maxAgeMinutes: number }[];
  /**
   * Per function, a count of the errors it raises on purpose (the authorizer's refusal of too many key lookups from
   * one address): its error alarm counts only the others, so a burst of guessed keys does not page anyone.
   */
  deliberateErrors?: Record<string, IMetric>;
  /** The sweeper runs here: alarm when it refunds searches whose process died. */
  sweeperRefunds?: boolean;
  /** A monthly AWS Budgets cost budget in USD (0 = none), notifying the topic and alarmEmail. */
  monthlyBudgetUsd?: number;
  alarmEmail?: string;
  /** p99 latency (ms) above which the API alarms. */
  latencyP99Ms?: number;
}

/** The namespace of the functions' own metrics (Powertools Metrics). */
export const METRICS_NAMESPACE = 'Rivals';

const FIVE_MINUTES = Duration.minutes(5);
/** One of the functions' own metrics (Powertools Metrics), summed over five minutes. */
const ownMetric = (metricName: string, statistic = 'Sum') => new Metric({ namespace: METRICS_NAMESPACE, metricName, dimensionsMap: { service: 'rivals' }, period: FIVE_MINUTES, statistic });
const tableThrottles = (table: ITable) =>
  new MathExpression({
    expression: 'reads + writes',
    usingMetrics: {
      reads: table.metric('ReadThrottleEvents', { period: FIVE_MINUTES, statistic: 'Sum' }),
      writes: table.metric('WriteThrottleEvents', { period: FIVE_MINUTES, statistic: 'Sum' }),
    },
    period: FIVE_MINUTES,
  });

export class Observability extends Construct {
  readonly topic: ITopic;
  readonly alarms: Alarm[] = [];
  /** Each function's error alarm, by name: a canary deployment of the function rolls back when it fires. */
  readonly errorAlarms: Record<string, Alarm> = {};
  /** The API's 5xx and latency alarms: any canary of the API rolls back when they fire. */
  readonly apiAlarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const five = FIVE_MINUTES;
    if (props.topic) this.topic = props.topic;
    else {
      const topic = new Topic(this, 'Alarms', { displayName: 'Rivals alarms', enforceSSL: true });
      if (props.alarmEmail) topic.addSubscription(new EmailSubscription(props.alarmEmail));
      if (props.monthlyBudgetUsd) this.budget(topic, props.monthlyBudgetUsd, props.alarmEmail);
      this.topic = topic;
    }

    const alarm = (name: string, metric: IMetric, threshold: number, description: string, periods = 1) => {
      const a = new Alarm(this, name, {
        metric,
        threshold,
        evaluationPeriods: periods,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      });
      a.addAlarmAction(new SnsAction(this.topic));
      this.alarms.push(a);
      return a;
    };

    if (props.api)
      this.apiAlarms.push(
        alarm('Api5xx', props.api.metricServerError({ period: five, statistic: 'Sum' }), 5, 'The API answered 5 or more 5xx responses in 5 minutes.'),
        alarm('ApiLatencyP99', props.api.metricLatency({ period: five, statistic: 'p99' }), props.latencyP99Ms ?? 5_000, 'The API\'s p99 latency is high.', 3),
      );
    for (const [name, fn] of Object.entries(props.functions)) {
      const deliberate = props.deliberateErrors?.[name];
      const errors = deliberate
        ? new MathExpression({
            expression: 'MAX([0, errors - deliberate])',
            usingMetrics: { errors: fn.metricErrors({ period: five, statistic: 'Sum' }), deliberate },
            period: five,
            label: `${name} errors (deliberate refusals excluded)`,
          })
        : fn.metricErrors({ period: five, statistic: 'Sum' });
      this.errorAlarms[name] = alarm(`${name}Errors`, errors, 1, `${name}: the function failed.`);
      alarm(`${name}Throttles`, fn.metricThrottles({ period: five, statistic: 'Sum' }), 1, `${name}: Lambda throttled the function.`);
    }
    if (props.table) alarm('TableThrottles', tableThrottles(props.table), 1, 'DynamoDB throttled reads or writes on the table.');
    (props.deadLetterQueues ?? []).forEach((queue, i) =>
      alarm(`DeadLetters${i}`, queue.metricApproximateNumberOfMessagesVisible({ period: five, statistic: 'Maximum' }), 1, 'Messages reached a dead-letter queue: redrive them once the cause is fixed.'),
    );
    if (props.redrivenDeadLetters) {
      const maxAge = props.redrivenDeadLetters.maxAgeSeconds;
      props.redrivenDeadLetters.queues.forEach((queue, i) =>
        alarm(`DeadLetterAge${i}`, queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), statistic: 'Maximum' }), maxAge, `A dead letter is older than ${maxAge} s: the sweeper's re-drive is not draining this queue (see its logs, or run \`npm run admin -- redrive\`).`),
      );
    }
    for (const { name, queue, maxAgeMinutes } of props.queues ?? [])
      alarm(
        `${name}OldestMessage`,
        queue.metricApproximateAgeOfOldestMessage({ period: five, statistic: 'Maximum' }),
        maxAgeMinutes * 60,
        `${name}: a message has waited over ${maxAgeMinutes} minutes: its consumer is failing, throttled or capped too low.`,
      );
    if (props.sweeperRefunds) alarm('SweeperRefunds', ownMetric('SweeperRefunds'), 1, 'The sweeper refunded searches whose process died: look for crashes or database errors.');
  }

  /** A monthly cost budget for the account: notifies at 80% of actual spend and at 100% of forecast spend. */
  private budget(topic: Topic, limitUsd: number, email?: string) {
    topic.addToResourcePolicy(
      new PolicyStatement({ actions: ['sns:Publish'], principals: [new ServicePrincipal('budgets.amazonaws.com')], resources: [topic.topicArn], conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } } }),
    );
    const subscribers = [{ subscriptionType: 'SNS', address: topic.topicArn }, ...(email ? [{ subscriptionType: 'EMAIL', address: email }] : [])];
    new CfnBudget(this, 'Budget', {
      budget: { budgetType: 'COST', timeUnit: 'MONTHLY', budgetLimit: { amount: limitUsd, unit: 'USD' }, budgetName: `${Stack.of(this).stackName}-monthly` },
      notificationsWithSubscribers: [
        { notification: { notificationType: 'ACTUAL', comparisonOperator: 'GREATER_THAN', threshold: 80, thresholdType: 'PERCENTAGE' }, subscribers },
        { notification: { notificationType: 'FORECASTED', comparisonOperator: 'GREATER_THAN', threshold: 100, thresholdType: 'PERCENTAGE' }, subscribers },
      ],
    });
  }
}

export interface OperationsDashboardProps {
  api: RestApi;
  table: ITable;
  /** Every function of the stage. */
  functions: Record<string, IFunction>;
  deadLetterQueues: IQueue[];
}

/** One CloudWatch dashboard for the stage: requests, latency, the service's own metrics, function errors, throttles and dead letters. */
export class OperationsDashboard extends Construct {
  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    super(scope, id);
    const five = FIVE_MINUTES;
    new Dashboard(this, 'Dashboard', {
      dashboardName: `${Stack.of(this).stackName.replace(/-[^-]+$/, '')}-rivals`.replace(/[^A-Za-z0-9_-]/g, '-'),
      widgets: [
        [
          new GraphWidget({ title: 'Requests and errors', left: [props.api.metricCount({ period: five }), props.api.metricClientError({ period: five }), props.api.metricServerError({ period: five })] }),
          new GraphWidget({ title: 'Latency (ms)', left: [props.api.metricLatency({ period: five, statistic: 'p50' }), props.api.metricLatency({ period: five, statistic: 'p99' })] }),
        ],
        [
          new GraphWidget({ title: 'Searches, refunds, rate limited', left: ['Searches', 'Refunds', 'RateLimited', 'SweeperRefunds', 'BulkDomains'].map((name) => ownMetric(name)) }),
          new GraphWidget({ title: 'Research time (ms)', left: [ownMetric('ResearchTime', 'p99')] }),
        ],
        [
          new GraphWidget({ title: 'Function errors', left: Object.values(props.functions).map((fn) => fn.metricErrors({ period: five })) }),
          new GraphWidget({ title: 'Table throttles and dead letters', left: [tableThrottles(props.table), ...props.deadLetterQueues.map((q) => q.metricApproximateNumberOfMessagesVisible({ period: five }))] }),
        ],
      ],
    });
  }
}
