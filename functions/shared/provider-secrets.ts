// composition root: the optional providers' keys (OpenAI-compatible, Brave), kept in AWS Secrets Manager and read
// once at init, never in plain environment variables. The secret is a JSON object of the variables
// @rivals/providers reads (OPENAI_API_KEY, BRAVE_SEARCH_API_KEY, ...).
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

export const PROVIDER_SECRET_ENV = 'RIVALS_PROVIDER_SECRET';

/** The environment the providers are configured from: the process's, plus the secret's keys when one is named. */
export async function providerEnvironment(env: NodeJS.ProcessEnv = process.env, client?: SecretsManagerClient): Promise<Record<string, string | undefined>> {
  const secretId = env[PROVIDER_SECRET_ENV];
  if (!secretId || !env.RIVALS_PROVIDERS) return env;
  const secrets = client ?? new SecretsManagerClient({});
  try {
    const { SecretString } = await secrets.send(new GetSecretValueCommand({ SecretId: secretId }));
    const values = JSON.parse(SecretString ?? '{}') as Record<string, unknown>;
    const strings = Object.fromEntries(Object.entries(values).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    return { ...env, ...strings };
  } finally {
    if (!client) secrets.destroy();
  }
}
