// primary adapter: the REQUEST authorizer on X-API-Key. Allows with { accountId, keyId } in the context, which is all
// that handlers trust; an unknown, malformed or revoked key, or one whose account is gone, is denied (API Gateway
// answers 401 invalid_api_key). Its reads are strongly consistent, so a denial it caches is never a stale one.
import { AUTHORIZER_RATE_LIMITED } from '@rivals/contracts';
import { authenticationBuckets } from '@rivals/core';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { config } from '../shared/config.js';
import { services } from '../shared/container.js';
import { logger } from '../shared/observability.js';
import { clientAddress } from '../shared/client-address.js';
import { takeTokens } from '../shared/rate-limit.js';

/** The policy covers every route of the stage, because API Gateway caches it per key for all of them. */
const stageWildcard = (methodArn: string) => {
  // arn:aws:execute-api:{region}:{account}:{apiId}/{stage}/{method}/{path...}
  const [apiArn, stage] = methodArn.split('/');
  return `${apiArn}/${stage}/*/*`;
};

const policy = (principalId: string, effect: 'Allow' | 'Deny', resource: string, context: Record<string, string>): APIGatewayAuthorizerResult => ({
  principalId,
  policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: resource }] },
  context,
});

export const handler = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const headers = event.headers ?? {};
  const key = Object.entries(headers).find(([name]) => name.toLowerCase() === 'x-api-key')?.[1]?.trim();
  // API Gateway answers a missing header itself (401 missing_api_key); this is the same answer if it ever gets here.
  if (!key) throw new Error('Unauthorized');
  // Key lookups per client IP, before any read: a burst of guessed keys is refused. Not a Deny, which API Gateway
  // would cache for this key (and answer 401); an error, which it never caches, and which the gateway response for
  // authorizer errors turns into 429 rate_limited (infra/stacks/api-stack.ts; the local front does the same).
  // The viewer's address behind CloudFront; a request without the distribution's secret is denied (the header is an
  // identity source too, so that denial is cached for that header value only, never for the key).
  const { ip, refused } = await clientAddress(event);
  if (refused) return policy('anonymous', 'Deny', event.methodArn, { errorCode: 'forbidden' });
  const limit = await takeTokens(authenticationBuckets(config.rateLimits, ip));
  if (limit && !limit.allowed) {
    logger.warn('key lookups rate limited', { sourceIp: ip });
    throw new Error(AUTHORIZER_RATE_LIMITED);
  }
  const principal = await services().apiKeyService.authenticate(key);
  if (!principal) {
    logger.info('api key denied');
    return policy('anonymous', 'Deny', event.methodArn, { errorCode: 'invalid_api_key' });
  }
  return policy(principal.accountId, 'Allow', stageWildcard(event.methodArn), { accountId: principal.accountId, keyId: principal.keyId });
};
