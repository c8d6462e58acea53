// Security settings of the CDK app. The dashboard's Content-Security-Policy lets the page send data to its own origin
// and to the uploads bucket's own address only, never to all of *.amazonaws.com (and that address is the one the SDK
// presigns uploads for). The key webhook secrets are sealed with is readable by the two functions that seal and open.
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3UploadStore } from '@rivals/aws';
import { buildStage } from '../../infra/stage.js';
import { computeTemplate } from './cli-app.js';

const outdir = mkdtempSync(join(tmpdir(), 'rivals-csp-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));
let api: Template;
/** The API's and the workers' stacks as one. */
let compute: Template;
beforeAll(() => {
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  const stage = buildStage(app, 'dev');
  api = Template.fromStack(stage.api);
  compute = computeTemplate(api, Template.fromStack(stage.workers));
});

describe('security settings', () => {
  it('allows connections to its own origin and the uploads bucket only', () => {
    const [policy] = Object.values(api.findResources('AWS::CloudFront::ResponseHeadersPolicy'));
    const csp = policy!.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy;
    const text = JSON.stringify(csp);
    expect(text).not.toContain('*.amazonaws.com');
    expect(text).not.toMatch(/connect-src[^;"]*\*/);
    // connect-src 'self' https://<the uploads bucket's regional domain name>, read from the stateful stack.
    expect(text).toMatch(/connect-src 'self' https:\/\//);
    expect(text).toMatch(/RegionalDomainName/);
  });

  it('lets only the webhook-secret route and the webhook sender read the sealing key', () => {
    const [keyId] = Object.keys(api.findResources('AWS::SecretsManager::Secret')).filter((id) => id.startsWith('WebhookSecretKey'));
    expect(keyId).toBeDefined();
    const readers = Object.entries(compute.findResources('AWS::IAM::Policy'))
      .filter(([, p]) => JSON.stringify(p).includes(keyId!))
      .map(([id]) => id);
    expect(readers).toHaveLength(2);
    expect(readers.some((id) => id.startsWith('WebhookSecretFunction'))).toBe(true);
    expect(readers.some((id) => id.includes('WebhookSender'))).toBe(true);
    const withKey = Object.values(compute.findResources('AWS::Lambda::Function')).filter((f) => JSON.stringify(f.Properties.Environment ?? {}).includes('WEBHOOK_SECRET_KEY_ARN'));
    expect(withKey).toHaveLength(2);
  });

  it.each(['us-east-1', 'eu-west-1'])('names the host the SDK presigns uploads at (%s)', async (region) => {
    const store = new S3UploadStore(new S3Client({ region, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } }), 'rivals-prod-uploads-abc123');
    const url = new URL(await store.presignPut('uploads/acct_x/job_y.csv', 'text/csv', 10, 60));
    // What CloudFormation's RegionalDomainName of that bucket is.
    expect(url.origin).toBe(`https://rivals-prod-uploads-abc123.s3.${region}.amazonaws.com`);
  });
});
