// infra: the cdk-nag AwsSolutions findings this design accepts, each with its reason in one line. The nag test runs
// the rules on every stage shape with these acknowledgements, so a new finding fails it until it is fixed or
// justified here.
import { Validations, type Stack } from 'aws-cdk-lib';
import type { Stage } from './stage.js';

const acknowledge = (stack: Stack, findings: Record<string, string>) => {
  for (const [id, reason] of Object.entries(findings)) Validations.of(stack).acknowledge({ id: `AwsSolutions::AwsSolutions-${id}`, reason });
};

export function acknowledgeNagFindings({ stateful, api, config }: Stage): void {
  acknowledge(stateful, {
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
