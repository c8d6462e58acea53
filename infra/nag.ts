// infra: the cdk-nag AwsSolutions findings this design accepts, each with its reason in one line. The nag test runs
// the rules on every stage shape of the app the CLI builds (cdk.json's context, a region), so a new finding fails it
// until it is fixed or justified here. A finding that names a rendered resource (an ARN, a cross-stack reference) is
// acknowledged by a pattern of what it means, never by one app's rendered string: the CLI renders cross-stack
// references and partitions differently from an app without cdk.json or a region.
import { Validations, type IPolicyValidationContext, type IPolicyValidationPlugin, type PolicyValidationPluginReport, type Stack } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import type { Stage } from './stage.js';

/** A finding acknowledged on a construct and everything under it when its rule id (with the finding) matches `rule`. */
export interface PatternAcknowledgement {
  scope: IConstruct;
  rule: RegExp;
  reason: string;
}

/**
 * cdk-nag's checks with pattern acknowledgements on top: cdk-nag v3 matches acknowledgements by exact id only, so its
 * report is filtered here. It keeps the inner plugin's name, so exact acknowledgements (`AwsSolutions::...`) still apply.
 */
export class AcknowledgingChecks implements IPolicyValidationPlugin {
  readonly name: string;
  readonly version?: string;

  constructor(
    private readonly inner: IPolicyValidationPlugin,
    readonly acknowledgements: PatternAcknowledgement[],
  ) {
    this.name = inner.name;
    if (inner.version) this.version = inner.version;
  }

  validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const report = this.inner.validate(context);
    const covered = (ruleName: string, path: string | undefined) =>
      path !== undefined && this.acknowledgements.some(({ scope, rule }) => rule.test(ruleName) && (path === scope.node.path || path.startsWith(`${scope.node.path}/`)));
    const violations = report.violations
      .map((v) => ({ ...v, violatingResources: v.violatingResources.filter((r) => !covered(v.ruleName, r.constructPath)) }))
      .filter((v) => v.violatingResources.length > 0);
    return { ...report, violations, success: violations.length === 0 };
  }
}

const acknowledge = (stack: Stack, findings: Record<string, string>) => {
  for (const [id, reason] of Object.entries(findings)) Validations.of(stack).acknowledge({ id: `AwsSolutions::AwsSolutions-${id}`, reason });
};

/** IAM5 findings on a resource that matches `pattern` (a regular expression's source). */
const resourceEndingIn = (pattern: string) => new RegExp(`^AwsSolutions-IAM5\\[Resource::${pattern}\\]$`);
/** An ARN's partition as cdk-nag renders it: a literal (partition literals, a region set) or the pseudo parameter. */
const PARTITION = '(?:<AWS::Partition>|aws[a-z-]*)';

/** cdk-nag's AwsSolutions rules on the stage, with this design's acknowledgements. */
export function nagChecks(app: IConstruct, stage: Stage): AcknowledgingChecks {
  return new AcknowledgingChecks(new AwsSolutionsChecks(app), acknowledgeNagFindings(stage));
}

/** Records the exact acknowledgements on the stage's constructs and returns the pattern ones. */
export function acknowledgeNagFindings({ stateful, api, workers, config }: Stage): PatternAcknowledgement[] {
  const patterns: PatternAcknowledgement[] = [];
  // Upload objects are named per job at run time, so the two functions that presign and read them hold s3:PutObject and
  // s3:GetObject on uploads/* (one prefix of one bucket; the bucket ARN comes from the stateful stack).
  for (const fn of [api.functions.BulkUploadUrl, workers.functions.UploadLandedWorker])
    if (fn?.role) patterns.push({ scope: fn.role, rule: resourceEndingIn('.+/uploads/\\*'), reason: 'Per-job upload objects under uploads/ of the uploads bucket only.' });
  // CDK's BucketDeployment handler copies the built dashboard from CDK's asset bucket into the site bucket and
  // invalidates CloudFront: CDK's own grants, read on the asset bucket and read-write on the site bucket only.
  const deployReason = "CDK's dashboard deployment: read on CDK's asset bucket, read-write on the dashboard's site bucket only.";
  for (const id of ['Action::s3:GetObject*', 'Action::s3:GetBucket*', 'Action::s3:List*', 'Action::s3:DeleteObject*', 'Action::s3:Abort*'])
    Validations.of(api.web.deployment.handlerRole).acknowledge({ id: `AwsSolutions::AwsSolutions-IAM5[${id}]`, reason: deployReason });
  patterns.push(
    // Objects of the dashboard's site bucket (its logical id starts with WebSite).
    { scope: api.web.deployment.handlerRole, rule: resourceEndingIn('<WebSite[0-9A-F]{8}\\.Arn>/\\*'), reason: deployReason },
    // Objects of CDK's bootstrap asset bucket, cdk-<qualifier>-assets-<account>-<region>, whatever the partition.
    { scope: api.web.deployment.handlerRole, rule: resourceEndingIn(`arn:${PARTITION}:s3:::cdk-[a-z0-9]+-assets-[^/]+/\\*`), reason: deployReason },
  );
  // AWS managed policies, by name, whatever the partition renders as.
  const managedPolicy = (name: string) => new RegExp(`^AwsSolutions-IAM4\\[Policy::arn:${PARTITION}:iam::aws:policy/${name}\\]$`);
  patterns.push(
    { scope: stateful, rule: managedPolicy('service-role/AWSLambdaBasicExecutionRole'), reason: "CDK's bucket-notifications handler (it turns on the uploads bucket's EventBridge events) only writes its own logs." },
    ...[api, workers].map((scope) => ({ scope, rule: managedPolicy('service-role/AWSLambdaBasicExecutionRole'), reason: 'AWSLambdaBasicExecutionRole only lets a function write its own logs.' })),
  );
  if (config.canaryDeployments)
    for (const scope of [api, workers])
      patterns.push({ scope, rule: managedPolicy('service-role/AWSCodeDeployRoleForLambdaLimited'), reason: "CodeDeploy's role for canary deployments uses the policy AWS maintains for shifting Lambda aliases." });
  if (config.backup)
    patterns.push({
      scope: stateful,
      rule: managedPolicy('service-role/AWSBackupServiceRolePolicyFor(Backup|Restores)'),
      reason: "AWS Backup's role for the table's daily backups (and restores) uses the policies AWS maintains for that service.",
    });
  if (config.cloudWatchRole)
    patterns.push({
      scope: api,
      rule: managedPolicy('service-role/AmazonAPIGatewayPushToCloudWatchLogs'),
      reason: 'The account-wide API Gateway logging role CDK creates when asked (cloudWatchRole=true) uses the managed policy AWS designed for it.',
    });
  // The EventBridge target's dead-letter queue is one, but cdk-nag only recognises dead-letter queues named by a redrive policy.
  const landedDeadLetters = workers.bulk.node.tryFindChild('UploadLandedDeadLetterQueue');
  if (landedDeadLetters)
    Validations.of(landedDeadLetters).acknowledge({ id: 'AwsSolutions::AwsSolutions-SQS3', reason: "It is the dead-letter queue of the upload-landed worker's EventBridge target." });
  acknowledge(stateful, {
    S1: 'The uploads bucket only holds CSV uploads for 7 days; object-level access is logged by CloudTrail data events where the account enables them.',
  });
  const everyFunctionStack = {
    'IAM5[Resource::*]': 'X-Ray trace segments and telemetry have no resource-level permissions.',
    L1: 'Functions run on Node.js 22, the Lambda runtime this project supports and tests.',
  };
  acknowledge(workers, everyFunctionStack);
  acknowledge(api, {
    ...everyFunctionStack,
    S1: 'The dashboard bucket holds the built site, rewritten on every deploy and read only by CloudFront.',
    CFR1: 'Rivals serves customers in every country: no geo restriction.',
    CFR2: 'The API behind /api has its own WAF (context waf=true) and per-key and per-IP limiters; the rest is static files.',
    CFR3: 'Requests to the API are logged by API Gateway\'s access logs; CloudFront standard logs would need an ACL-enabled bucket.',
    CFR4: 'With a custom domain the floor is TLS 1.2 (2021); without one, CloudFront\'s default certificate sets it.',
    APIG2: 'Every handler validates its request with a strict schema that names the field at fault; API Gateway validation would answer first, with less.',
    COG4: 'Callers authenticate with API keys through the REQUEST authorizer on X-API-Key, by design: there are no Cognito users.',
    SMG4: "Neither secret of this stack rotates automatically. The origin secret is rotated by the README's runbook (put a new value, bump originSecretVersion, deploy; the functions accept the current and previous values meanwhile); the webhook sealing key seals every stored webhook secret, so rotating it needs a re-seal (accounts rotate their own webhook secrets at any time).",
    APIG4: 'Only the keyless routes (health, the OpenAPI document, public shared searches) have no authorizer, by design.',
    ...(config.waf ? {} : { APIG3: 'The WAF web ACL is opt-in (context waf=true); the functions rate-limit per key and per IP.' }),
    ...(config.cloudWatchRole ? {} : { APIG6: 'Execution logging needs the account-wide API Gateway CloudWatch role (context cloudWatchRole=true); access logs are always on.' }),
  });
  return patterns;
}
