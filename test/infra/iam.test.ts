// Least privilege, read off the synthesised templates: no action is a wildcard, no function may Scan, and every
// resource wildcard is one that AWS requires, named here with its reason.
import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '@rivals/db';
import { FLUSHES_AUTHORIZER_CACHE, RATE_LIMIT_PARTITION, ROUTES } from '../../infra/routes.js';
import { cleanOutdirs, cliTemplates, STAGE_SHAPES } from './cli-app.js';

interface Statement {
  Action: string | string[];
  Resource: unknown;
  Effect: string;
}

/** Resource wildcards AWS requires, each with its reason (the action it is for). */
const JUSTIFIED_WILDCARDS: Record<string, string> = {
  'xray:PutTraceSegments': 'X-Ray trace segments have no resource-level permissions',
  'xray:PutTelemetryRecords': 'X-Ray telemetry has no resource-level permissions',
  's3:PutObject': 'bulk uploads: object keys under uploads/ are made per job at run time (presigned PUT)',
  's3:GetObject': 'bulk uploads: the upload-landed worker reads the object of any job under uploads/',
};

/**
 * Policies CDK makes for its own handlers, by logical-id prefix, each with its reason: their statements are CDK's, not
 * the project's functions'.
 */
const CDK_HANDLERS: Record<string, string> = {
  CustomCDKBucketDeployment: "copies the built dashboard into its site bucket (CDK's grantReadWrite there, read on CDK's asset bucket) and invalidates CloudFront (no resource-level permission)",
};

let templates: Template[] = [];
afterAll(cleanOutdirs);
beforeAll(() => {
  // A dev stage (data not retained: S3 auto-delete) and a production one with every option on (providers included).
  const shapes = [STAGE_SHAPES[0]!, STAGE_SHAPES.find((s) => s.context.providers)!];
  templates = shapes.flatMap(({ stage, region, context }) => {
    const t = cliTemplates(context, { stage, region });
    return [t.stateful, t.api];
  });
});

/** Every statement of every policy of the project's functions: their policies and the inline policies of roles. */
const statements = (): { policy: string; statement: Statement }[] => allStatements().filter(({ policy }) => !Object.keys(CDK_HANDLERS).some((prefix) => policy.startsWith(prefix)));
const allStatements = (): { policy: string; statement: Statement }[] =>
  templates.flatMap((t) => [
    ...Object.entries(t.findResources('AWS::IAM::Policy')).flatMap(([policy, r]) =>
      (r.Properties.PolicyDocument.Statement as Statement[]).map((statement) => ({ policy, statement })),
    ),
    ...Object.entries(t.findResources('AWS::IAM::Role')).flatMap(([role, r]) =>
      ((r.Properties.Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[]).flatMap((p) => p.PolicyDocument.Statement.map((statement) => ({ policy: role, statement }))),
    ),
  ]);
const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
const hasWildcard = (resource: unknown): boolean =>
  typeof resource === 'string' ? resource.includes('*') : Array.isArray(resource) ? resource.some(hasWildcard) : JSON.stringify(resource ?? '').includes('*');

describe('IAM', () => {
  it('reads the policies of every function', () => {
    expect(statements().filter(({ statement }) => actionsOf(statement).includes('dynamodb:GetItem')).length).toBeGreaterThan(5);
  });

  it("leaves out only the policies of CDK's own handlers, and those touch no table or queue", () => {
    const left = allStatements().filter(({ policy }) => Object.keys(CDK_HANDLERS).some((prefix) => policy.startsWith(prefix)));
    expect(left.length + statements().length).toBe(allStatements().length);
    expect(new Set(left.map(({ policy }) => Object.keys(CDK_HANDLERS).find((prefix) => policy.startsWith(prefix))))).toEqual(new Set(Object.keys(CDK_HANDLERS)));
    for (const { statement } of left) expect(actionsOf(statement).every((a) => a.startsWith('s3:') || a.startsWith('cloudfront:'))).toBe(true);
  });

  it('never grants a wildcard action', () => {
    const wild = statements().filter(({ statement }) => actionsOf(statement).some((a) => a.includes('*')));
    expect(wild.map(({ policy, statement }) => `${policy}: ${actionsOf(statement).join(',')}`)).toEqual([]);
  });

  it('lets every HTTP function and the authorizer update rate-limit buckets, and nothing else through that grant', () => {
    const grants = statements().filter(({ statement }) => JSON.stringify(statement).includes(`${RATE_LIMIT_PARTITION}*`));
    // Per stage: one per route and the authorizer's.
    expect(grants.length).toBe(2 * (ROUTES.filter((r) => !r.functionOf).length + 1)); // routes sharing a function share its grant
    for (const { statement } of grants) expect(actionsOf(statement).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    expect(keys.rateBucket('ip:203.0.113.9').pk.startsWith(RATE_LIMIT_PARTITION)).toBe(true);
  });

  it('lets only the key-revoking functions flush the authorizer cache, of their own stage only', () => {
    const grants = statements().filter(({ statement }) => actionsOf(statement).some((a) => a.startsWith('apigateway:')));
    const stages = statements().filter(({ statement }) => JSON.stringify(statement).includes(`${RATE_LIMIT_PARTITION}*`)).length / (ROUTES.filter((r) => !r.functionOf).length + 1);
    expect(grants.length).toBe(stages * FLUSHES_AUTHORIZER_CACHE.filter((id) => !ROUTES.find((r) => r.id === id)?.functionOf).length);
    for (const { policy, statement } of grants) {
      expect(FLUSHES_AUTHORIZER_CACHE.some((id) => policy.startsWith(`${id}Function`))).toBe(true);
      expect(actionsOf(statement)).toEqual(['apigateway:DELETE']);
      const resource = JSON.stringify(statement.Resource);
      expect(resource).toMatch(/\/restapis\/.*\/stages\/[a-z0-9-]+\/cache\/authorizers"/);
      expect(hasWildcard(statement.Resource)).toBe(false);
    }
  });

  it('never lets a function Scan the table', () => {
    const scans = statements().filter(({ statement }) => actionsOf(statement).includes('dynamodb:Scan'));
    expect(scans.map(({ policy }) => policy)).toEqual([]);
  });

  it('uses a resource wildcard only where AWS requires one', () => {
    const unjustified = statements()
      .filter(({ statement }) => hasWildcard(statement.Resource))
      .filter(({ statement }) => !actionsOf(statement).every((a) => a in JUSTIFIED_WILDCARDS));
    expect(unjustified.map(({ policy, statement }) => `${policy}: ${actionsOf(statement).join(',')} on ${JSON.stringify(statement.Resource)}`)).toEqual([]);
  });
});
