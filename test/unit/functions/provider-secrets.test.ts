// The providers' keys come from Secrets Manager at init, only when providers are on and a secret is named.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { providerEnvironment } from '../../../functions/shared/provider-secrets.js';

describe('provider secrets', () => {
  it('merges the secret\'s string values into the providers\' environment', async () => {
    const secrets = mockClient(SecretsManagerClient);
    secrets.on(GetSecretValueCommand, { SecretId: 'rivals/providers' }).resolves({ SecretString: JSON.stringify({ OPENAI_API_KEY: 'sk-x', ignored: 3 }) });
    const env = await providerEnvironment({ RIVALS_PROVIDERS: 'openai', RIVALS_PROVIDER_SECRET: 'rivals/providers' }, new SecretsManagerClient({}));
    expect(env).toMatchObject({ RIVALS_PROVIDERS: 'openai', OPENAI_API_KEY: 'sk-x' });
    expect(env).not.toHaveProperty('ignored');
    expect(secrets).toHaveReceivedCommandTimes(GetSecretValueCommand, 1);
  });

  it.each([
    ['providers are off', { RIVALS_PROVIDER_SECRET: 'rivals/providers' }],
    ['no secret is named', { RIVALS_PROVIDERS: 'brave' }],
  ])('reads nothing when %s', async (_, env) => {
    const secrets = mockClient(SecretsManagerClient);
    expect(await providerEnvironment(env, new SecretsManagerClient({}))).toEqual(env);
    expect(secrets).toHaveReceivedCommandTimes(GetSecretValueCommand, 0);
  });
});
