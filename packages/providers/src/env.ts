// providers (composition): the optional providers an environment turns on. Off unless RIVALS_PROVIDERS lists them.
import { BedrockConverseProvider } from './bedrock.js';
import { BraveSearchProvider } from './brave.js';
import { DEFAULT_TIMEOUT_MS } from './deadline.js';
import { OpenAiCompatibleProvider } from './openai.js';
import type { CandidateProvider } from './types.js';

export type Env = Record<string, string | undefined>;

export const PROVIDER_KINDS = ['openai', 'bedrock', 'brave'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/**
 * The providers named in RIVALS_PROVIDERS (a comma list of openai, bedrock, brave), in that order, each configured from
 * its own variables. [] when RIVALS_PROVIDERS is unset or blank. Throws, naming the variable, on an unknown provider or
 * a missing or malformed setting, so a misconfigured deployment fails at start-up rather than silently searching less.
 *
 *   openai:  OPENAI_API_KEY (required), OPENAI_BASE_URL (https://api.openai.com/v1), OPENAI_MODEL (gpt-4o-mini)
 *   bedrock: BEDROCK_MODEL_ID (required), BEDROCK_REGION (else AWS_REGION), BEDROCK_ENDPOINT (optional)
 *   brave:   BRAVE_SEARCH_API_KEY (required), BRAVE_SEARCH_URL (https://api.search.brave.com)
 *   all:     RIVALS_PROVIDER_TIMEOUT_MS (8000)
 */
export function providersFromEnv(env: Env = process.env): CandidateProvider[] {
  const kinds = enabledKinds(env);
  if (kinds.length === 0) return [];
  const timeoutMs = positiveInt(env, 'RIVALS_PROVIDER_TIMEOUT_MS') ?? DEFAULT_TIMEOUT_MS;
  return kinds.map((kind): CandidateProvider => {
    switch (kind) {
      case 'openai':
        return new OpenAiCompatibleProvider({
          baseUrl: url(env, 'OPENAI_BASE_URL') ?? 'https://api.openai.com/v1',
          apiKey: required(env, 'OPENAI_API_KEY', kind),
          model: setting(env, 'OPENAI_MODEL') ?? 'gpt-4o-mini',
          timeoutMs,
        });
      case 'bedrock': {
        const region = setting(env, 'BEDROCK_REGION') ?? setting(env, 'AWS_REGION');
        if (!region) {
          throw new Error('BEDROCK_REGION is required when RIVALS_PROVIDERS includes bedrock (neither it nor AWS_REGION is set).');
        }
        const endpoint = url(env, 'BEDROCK_ENDPOINT');
        return new BedrockConverseProvider({
          modelId: required(env, 'BEDROCK_MODEL_ID', kind),
          region,
          ...(endpoint ? { endpoint } : {}),
          timeoutMs,
        });
      }
      case 'brave':
        return new BraveSearchProvider({
          baseUrl: url(env, 'BRAVE_SEARCH_URL') ?? 'https://api.search.brave.com',
          apiKey: required(env, 'BRAVE_SEARCH_API_KEY', kind),
          timeoutMs,
        });
    }
  });
}

function enabledKinds(env: Env): ProviderKind[] {
  const names = (env.RIVALS_PROVIDERS ?? '')
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean);
  const kinds: ProviderKind[] = [];
  for (const name of names) {
    if (!(PROVIDER_KINDS as readonly string[]).includes(name)) {
      throw new Error(`RIVALS_PROVIDERS names an unknown provider "${name}"; expected a comma list of ${PROVIDER_KINDS.join(', ')}.`);
    }
    if (!kinds.includes(name as ProviderKind)) kinds.push(name as ProviderKind);
  }
  return kinds;
}

function setting(env: Env, variable: string): string | undefined {
  const value = env[variable]?.trim();
  return value ? value : undefined;
}

function required(env: Env, variable: string, kind: ProviderKind): string {
  const value = setting(env, variable);
  if (!value) throw new Error(`${variable} is required when RIVALS_PROVIDERS includes ${kind}.`);
  return value;
}

function url(env: Env, variable: string): string | undefined {
  const value = setting(env, variable);
  if (value === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new Error(`${variable} must be an http(s) URL, got "${value.slice(0, 100)}".`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new Error(`${variable} must be an http(s) URL, got "${value.slice(0, 100)}".`);
  }
  return value;
}

function positiveInt(env: Env, variable: string): number | undefined {
  const value = setting(env, variable);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw new Error(`${variable} must be a positive whole number of milliseconds, got "${value.slice(0, 100)}".`);
  }
  return n;
}
