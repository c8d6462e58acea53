// primary adapter: DELETE /api/auth/api-keys/:id and DELETE /api/auth/api-keys with { "id" } (the same function
// serves both routes). 204 once revoked, also when it already was; another account's key is 404; the account's last
// live key is 409 conflict.
import { RevokeApiKeyRequest } from '@rivals/contracts';
import { invalidRequest } from '@rivals/core';
import { services } from '../shared/container.js';
import { httpRoute } from '../shared/http.js';

export const handler = httpRoute({
  auth: true,
  freshKey: true,
  body: RevokeApiKeyRequest.optional(),
  handler: async ({ principal, pathParameters, body }) => {
    const fromPath = pathParameters.id;
    if (fromPath !== undefined && body && body.id !== fromPath) throw invalidRequest('The id in the body differs from the one in the path.', [{ field: 'id', problem: 'differs from the path' }]);
    const id = fromPath ?? body?.id;
    if (id === undefined) throw invalidRequest('Say which key to revoke: DELETE /api/auth/api-keys/{id}, or a body { "id" }.', [{ field: 'id', problem: 'required' }]);
    await services().apiKeyService.revoke(principal.accountId, id);
    return { statusCode: 204 };
  },
});
