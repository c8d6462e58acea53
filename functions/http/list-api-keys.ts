// primary adapter: GET /api/auth/api-keys. The caller's keys, newest first, revoked ones included; never a key itself.
import { PageQuery, type ApiKeyList } from '@rivals/contracts';
import { services } from '../shared/container.js';
import { httpRoute } from '../shared/http.js';

export const handler = httpRoute({
  auth: true,
  query: PageQuery,
  handler: async ({ principal, query }) => {
    const page = await services().apiKeyService.list(principal.accountId, query);
    const body: ApiKeyList = {
      items: page.items.map(({ id, name, prefix, last4, createdAt, lastUsedAt, revokedAt }) => ({ id, name, prefix, last4, createdAt, lastUsedAt, revokedAt })),
      nextCursor: page.nextCursor,
    };
    return { statusCode: 200, body };
  },
});
