// aws adapter (secondary): API Gateway's authorizer result cache of one stage, emptied with FlushStageAuthorizersCache
// (the functions that revoke keys hold that one permission on that one stage; infra/stacks/api-stack.ts). Locally the
// front answers the same call (packages/local/src/front.ts), reached through AWS_ENDPOINT_URL_API_GATEWAY.
import { APIGatewayClient, FlushStageAuthorizersCacheCommand, type APIGatewayClientConfig } from '@aws-sdk/client-api-gateway';
import type { AuthorizerCache } from '@rivals/core';

export class ApiGatewayAuthorizerCache implements AuthorizerCache {
  constructor(
    private readonly client: APIGatewayClient,
    private readonly restApiId: string,
    private readonly stageName: string,
  ) {}

  static of(restApiId: string, stageName: string, config: APIGatewayClientConfig = {}): ApiGatewayAuthorizerCache {
    return new ApiGatewayAuthorizerCache(new APIGatewayClient({ maxAttempts: 5, ...config }), restApiId, stageName);
  }

  async flush(): Promise<void> {
    await this.client.send(new FlushStageAuthorizersCacheCommand({ restApiId: this.restApiId, stageName: this.stageName }));
  }
}
