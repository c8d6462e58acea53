// test fixture: a REQUEST authorizer for the local front's tests, standing in for functions/authorizer/api-key.ts. It
// allows the keys in `globalThis.fakeAuthorizer.live` (stage-wide, as the real one), denies others, throws for `boom`,
// and counts its calls.
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';

export interface FakeAuthorizer {
  live: Set<string>;
  calls: number;
}

export const handler = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const state = (globalThis as unknown as { fakeAuthorizer: FakeAuthorizer }).fakeAuthorizer;
  state.calls++;
  const key = event.headers?.['X-API-Key'] ?? event.headers?.['x-api-key'] ?? '';
  if (key === 'boom') throw new Error('Unauthorized');
  const [apiArn, stage] = event.methodArn.split('/');
  return state.live.has(key)
    ? { principalId: 'acct_1', policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${apiArn}/${stage}/*/*` }] }, context: { accountId: 'acct_1', keyId: `key_${key}` } }
    : { principalId: 'anonymous', policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: event.methodArn }] }, context: {} };
};
