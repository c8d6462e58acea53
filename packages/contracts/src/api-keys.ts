// contracts: API key management (docs/api.md "Account data", "Authentication"). The key itself appears once, in the
// answer of the create call; lists show its prefix and last four characters only.
import { z } from 'zod';
import { pageOf } from './pages.js';

export const API_KEY_NAME_MAX = 100;
/** Live (unrevoked) keys an account may hold through the API. */
export const MAX_ACTIVE_API_KEYS = 100;
export const API_KEY_ID_PATTERN = /^key_[0-9a-z]{26}$/;

/** POST /api/auth/api-keys. The body is optional: no body is a key without a name. */
export const CreateApiKeyRequest = z
  .strictObject({ name: z.string().trim().min(1, 'name must not be blank').max(API_KEY_NAME_MAX).optional() })
  .optional()
  .transform((body) => body ?? {});
export type CreateApiKeyRequest = z.input<typeof CreateApiKeyRequest>;

const timestamp = z.string();

export const CreatedApiKey = z.strictObject({
  id: z.string(),
  name: z.string().nullable(),
  /** The full key: shown this once, never stored. */
  key: z.string(),
  prefix: z.string(),
  createdAt: timestamp,
});
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const ApiKeySummary = z.strictObject({
  id: z.string(),
  name: z.string().nullable(),
  prefix: z.string(),
  last4: z.string(),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  revokedAt: timestamp.nullable(),
});
export type ApiKeySummary = z.infer<typeof ApiKeySummary>;

export const ApiKeyList = pageOf(ApiKeySummary);
export type ApiKeyList = z.infer<typeof ApiKeyList>;

/** DELETE /api/auth/api-keys with a body: the same as DELETE /api/auth/api-keys/:id. */
export const RevokeApiKeyRequest = z.strictObject({ id: z.string().min(1).max(64) });
export type RevokeApiKeyRequest = z.infer<typeof RevokeApiKeyRequest>;
