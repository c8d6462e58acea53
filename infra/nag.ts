// infra: the cdk-nag AwsSolutions findings this design accepts, each with its reason in one line. The nag test runs
// the rules on every stage shape with these acknowledgements, so a new finding fails it until it is fixed or
// justified here.
import { Validations, type Stack } from 'aws-cdk-lib';
import type { Stage } from './stage.js';

const acknowledge = (stack: Stack, findings: Record<string, string>) => {
  for (const [id, reason] of Object.entries(findings)) Validations.of(stack).acknowledge({ id: `AwsSolutions::AwsSolutions-${id}`, reason });
};

export function acknowledgeNagFindings({ stateful, api, config }: Stage): void {
  // Upload objects are named per job at run time, so the two functions that presign and read them hold s3:PutObject and
  // s3:GetObject on uploads/* (one prefix of one bucket). cdk-nag names the finding after the bucket ARN's cross-stack
  // export (CDK derives its suffix from the bucket's logical id); the nag test fails if that ever changes.
  const uploadsObjects = `Resource::${stateful.stackName}:ExportsOutputFnGetAttUploads4F6EB0FDArn5513CBEA/uploads/*`;
  for (const fn of [api.functions.BulkUploadUrl, api.functions.UploadLandedWorker])
    if (fn?.role) Validations.of(fn.role).acknowledge({ id: `AwsSolutions::AwsSolutions-IAM5[${uploadsObjects}]`, reason: 'Per-job upload objects under uploads/ of the uploads bucket only.' });
  // CDK's BucketDeployment handler copies the built dashboard from CDK's asset bucket into the site bucket and
  // invalidates CloudFront: CDK's own grants, read on the asset bucket and read-write on the site bucket only.
  for (const id of ['Action::s3:GetObject*', 'Action::s3:GetBucket*', 'Action::s3:List*', 'Action::s3:DeleteObject*', 'Action::s3:Abort*', 'Resource::<WebSiteD504717C.Arn>/*', 'Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*'])
    Validations.of(api.web.deployment.handlerRole).acknowledge({ id: `AwsSolutions::AwsSolutions-IAM5[${id}]`, reason: "CDK's dashboard deployment: read on CDK's asset bucket, read-write on the dashboard's site bucket only." });
  acknowledge(stateful, {
    'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]':
      "CDK's bucket-notifications handler (it turns on the uploads bucket's EventBridge events) only writes its own logs.",
    S1: 'The uploads bucket only holds CSV uploads for 7 days; object-level access is logged by CloudTrail data events where the account enables them.',
  });
  acknowledge(api, {
    S1: 'The dashboard bucket holds the built site, rewritten on every deploy and read only by CloudFront.',
    CFR1: 'Rivals serves customers in every country: no geo restriction.',
    CFR2: 'The API behind /api has its own WAF (context waf=true) and per-key and per-IP limiters; the rest is static files.',
    CFR3: 'Requests to the API are logged by API Gateway\'s access logs; CloudFront standard logs would need an ACL-enabled bucket.',
    CFR4: 'With a custom domain the floor is TLS 1.2 (2021); without one, CloudFront\'s default certificate sets it.',
    'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]':
      'AWSLambdaBasicExecutionRole only lets a function write its own logs.',
    'IAM5[Resource::*]': 'X-Ray trace segments and telemetry have no resource-level permissions.',
    L1: 'Functions run on Node.js 22, the Lambda runtime this project supports and tests.',
    APIG2: 'Every handler validates its request with a strict schema that names the field at fault; API Gateway validation would answer first, with less.',
    COG4: 'Callers authenticate with API keys through the REQUEST authorizer on X-API-Key, by design: there are no Cognito users.',
    SMG4: 'The webhook sealing key is not rotated automatically: every stored webhook secret is sealed with it, so a rotation needs a re-seal (accounts rotate their own secrets at any time).',
    APIG4: 'Only the keyless routes (health, the OpenAPI document, public shared searches) have no authorizer, by design.',
    ...(config.waf ? {} : { APIG3: 'The WAF web ACL is opt-in (context waf=true); the functions rate-limit per key and per IP.' }),
    ...(config.cloudWatchRole
      ? {
          'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]':
            'The account-wide API Gateway logging role CDK creates when asked (cloudWatchRole=true) uses the managed policy AWS designed for it.',
        }
      : { APIG6: 'Execution logging needs the account-wide API Gateway CloudWatch role (context cloudWatchRole=true); access logs are always on.' }),
  });
}
