// infra: how a new version of a stack's functions goes live. With canaryDeployments, CodeDeploy shifts 10% of each
// function's traffic to it for 5 minutes, then the rest, and rolls back if one of the function's rollback alarms fires;
// otherwise CloudFormation moves the alias at once (dev).
import type { Stack } from 'aws-cdk-lib';
import type { IAlarm } from 'aws-cdk-lib/aws-cloudwatch';
import { LambdaApplication, LambdaDeploymentConfig, LambdaDeploymentGroup } from 'aws-cdk-lib/aws-codedeploy';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { ApiFunction } from './api-function.js';

/**
 * One CodeDeploy application for the stack's functions, a deployment group per function (a canary of 10% for 5
 * minutes) rolled back by `rollbackAlarms(name)`. The alias update policy these add ties each alias to its group, so
 * both live in the function's stack.
 */
export function canaryDeployments(stack: Stack, id: string, applicationName: string, functions: Record<string, ApiFunction>, rollbackAlarms: (name: string) => IAlarm[]) {
  const application = new LambdaApplication(stack, id, { applicationName });
  // One role for every deployment group: AWS's policy for CodeDeploy on Lambda (shift aliases, invoke hooks it is given).
  const role = new Role(stack, `${id}Role`, {
    assumedBy: new ServicePrincipal('codedeploy.amazonaws.com'),
    managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSCodeDeployRoleForLambdaLimited')],
  });
  for (const [name, fn] of Object.entries(functions)) {
    new LambdaDeploymentGroup(stack, `${name}Deployment`, {
      application,
      role,
      alias: fn.live,
      deploymentConfig: LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
      alarms: rollbackAlarms(name),
      autoRollback: { failedDeployment: true, deploymentInAlarm: true, stoppedDeployment: true },
    });
  }
}
