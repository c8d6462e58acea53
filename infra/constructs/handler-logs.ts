// infra: log groups with retention for the Lambda handlers CDK adds by itself (auto-deleting bucket objects, bucket
// notifications): left alone, Lambda creates their log groups on first run, kept forever and outside the stack. Each
// gets a log group of the stack's own, with the project's retention, before it first runs.
import { CfnResource, RemovalPolicy, type IAspect } from 'aws-cdk-lib';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IConstruct } from 'constructs';

export const HANDLER_LOG_RETENTION = RetentionDays.THREE_MONTHS;

export class HandlerLogGroups implements IAspect {
  visit(node: IConstruct): void {
    if (!CfnResource.isCfnResource(node) || node.cfnResourceType !== 'AWS::Lambda::Function') return;
    // A CfnFunction keeps its properties as fields; CDK's own providers are plain CfnResources with CloudFormation's names.
    const declared = node instanceof CfnFunction ? node.loggingConfig : (node as unknown as { _cfnProperties?: Record<string, unknown> })._cfnProperties?.LoggingConfig;
    if (declared) return;
    const scope = node.node.scope!;
    const logs = new LogGroup(scope, `${node.node.id}LogGroup`, { retention: HANDLER_LOG_RETENTION, removalPolicy: RemovalPolicy.DESTROY });
    node.addPropertyOverride('LoggingConfig', { LogGroup: logs.logGroupName });
  }
}
