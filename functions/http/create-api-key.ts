// primary adapter: POST /api/auth/api-keys. A new key for the caller's account; the key itself is in this answer only.
import { CreateApiKeyRequest, type CreatedApiKey } from '@rivals/contracts';
import { services } from '../shared/container.js';
import { httpRoute } from '../shared/http.js';

export const handler = httpRoute({
  auth: true,
  freshKey: true,
  body: CreateApiKeyRequest,
  handler: async ({ principal, body }) => {
    const { key, record } = await services().apiKeyService.create(principal.accountId, body.name ?? null);
    const created: CreatedApiKey = { id: record.id, name: record.name, key, prefix: record.prefix, createdAt: record.createdAt };
    return { statusCode: 201, body: created };
  },
});
