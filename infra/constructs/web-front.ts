// infra: the one origin a browser talks to. CloudFront serves the dashboard's built files from a private bucket
// (origin access control) and sends `/api/*` to the REST API uncached, so the dashboard needs no CORS; security
// headers on every answer; an optional custom domain.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CfnOutput, Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { RestApiOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { contentSecurityPolicy, FILE_PATH, PUBLIC_HOST_HEADER } from '../web.js';

export interface WebFrontProps {
  api: RestApi;
  /** The secret header CloudFront adds to every request it sends the API; `version` changes when the secret is rotated. */
  origin: { header: string; secret: ISecret; version: number };
  /** The dashboard's built files (Vite's dist/). Required: cdk.json's build command makes them before every synth. */
  dashboardDir: string;
  retainData: boolean;
  /** The uploads bucket's origin, the one place the dashboard may send a file to (presigned PUT); none when absent. */
  uploadsOrigin?: string;
  domainName?: string;
  /** An ACM certificate in us-east-1 (CloudFront's region) for domainName. */
  certificateArn?: string;
}

/**
 * Paths without a file extension are the dashboard's own routes (/search, /share/:token): they get index.html, and
 * the single-page app takes it from there. A CloudFront function, not an error page, so that API errors pass as they are.
 */
const SPA_ROUTING = `function handler(event) {
  var request = event.request;
  if (!${FILE_PATH}.test(request.uri)) request.uri = '/index.html';
  return request;
}`;

/** The header CloudFront's function sets to the viewer's address on API requests (the WAF's per-IP rule counts it). */
export const VIEWER_IP_HEADER = 'x-viewer-ip';

/**
 * Overwrites any X-Viewer-Ip the client sent with the address CloudFront saw; and passes on the host the viewer asked
 * for (the distribution's or the custom domain), as CloudFront sends API Gateway its own host: the API makes absolute
 * links (share links) on the dashboard's origin from it.
 */
const VIEWER_IP = `function handler(event) {
  event.request.headers['${VIEWER_IP_HEADER}'] = { value: event.viewer.ip };
  event.request.headers['${PUBLIC_HOST_HEADER}'] = { value: event.request.headers.host ? event.request.headers.host.value : '' };
  return event.request;
}`;

export class WebFront extends Construct {
  /** The address of the dashboard, and of the API under /api. */
  readonly url: string;
  readonly distribution: Distribution;
  /** Copies the built dashboard into the site bucket (CDK's handler) and invalidates CloudFront's cache. */
  readonly deployment: BucketDeployment;

  constructor(scope: Construct, id: string, props: WebFrontProps) {
    super(scope, id);
    // A deploy never ships without the dashboard: no build, no synth.
    if (!existsSync(join(props.dashboardDir, 'index.html')))
      throw new Error(`The dashboard is not built (${props.dashboardDir}/index.html is missing): run \`npm run dashboard:build\` (npm ci and cdk's build command do).`);
    const site = new Bucket(this, 'Site', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // The site is rebuilt from the repository on every deploy: nothing in it needs keeping.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    const headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: contentSecurityPolicy(props.uploadsOrigin ? [props.uploadsOrigin] : []),
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Rivals dashboard and API',
      defaultRootObject: 'index.html',
      priceClass: PriceClass.PRICE_CLASS_100,
      // The TLS floor applies to a custom certificate only; CloudFront's default certificate fixes its own.
      ...(props.domainName && props.certificateArn
        ? {
            domainNames: [props.domainName],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(site),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        responseHeadersPolicy: headers,
        functionAssociations: [{ eventType: FunctionEventType.VIEWER_REQUEST, function: new CloudFrontFunction(this, 'SpaRouting', { code: FunctionCode.fromInline(SPA_ROUTING) }) }],
      },
      additionalBehaviors: {
        '/api/*': {
          // The secret is resolved by CloudFormation at deploy time (never in the template); the version header makes a
          // rotation change the distribution, so that the new value is read.
          origin: new RestApiOrigin(props.api, {
            customHeaders: { [props.origin.header]: props.origin.secret.secretValue.unsafeUnwrap(), [`${props.origin.header}-version`]: String(props.origin.version) },
          }),
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          // Every header but Host (API Gateway answers for its own host), every query string, no cookies.
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: headers,
          functionAssociations: [{ eventType: FunctionEventType.VIEWER_REQUEST, function: new CloudFrontFunction(this, 'ViewerIp', { code: FunctionCode.fromInline(VIEWER_IP) }) }],
        },
      },
    });
    this.deployment = new BucketDeployment(this, 'Deploy', {
      sources: [Source.asset(props.dashboardDir)],
      destinationBucket: site,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      logGroup: new LogGroup(this, 'DeployLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY }),
    });
    this.url = `https://${props.domainName ?? this.distribution.distributionDomainName}/`;
    new CfnOutput(scope, 'DashboardUrl', { value: this.url, description: 'The dashboard, and the API on the same origin under /api' });
  }
}
