// providersFromEnv: off unless RIVALS_PROVIDERS lists providers; each listed one configured from its variables.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BedrockConverseProvider, BraveSearchProvider, OpenAiCompatibleProvider, providersFromEnv } from '@rivals/providers';

const keys = { OPENAI_API_KEY: 'sk-1', BEDROCK_MODEL_ID: 'amazon.nova-lite-v1:0', BEDROCK_REGION: 'us-east-1', BRAVE_SEARCH_API_KEY: 'b-1' };

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('providersFromEnv', () => {
  it('is off by default, even with every key present', () => {
    expect(providersFromEnv({})).toEqual([]);
    expect(providersFromEnv(keys)).toEqual([]);
    expect(providersFromEnv({ ...keys, RIVALS_PROVIDERS: ' , ' })).toEqual([]);
  });

  it('reads process.env when given nothing', () => {
    vi.stubEnv('RIVALS_PROVIDERS', undefined);
    expect(providersFromEnv()).toEqual([]);
    vi.stubEnv('RIVALS_PROVIDERS', 'brave');
    vi.stubEnv('BRAVE_SEARCH_API_KEY', 'b-1');
    expect(providersFromEnv().map((p) => p.name)).toEqual(['web-search:brave']);
  });

  it('builds the listed providers in order, once each', () => {
    const providers = providersFromEnv({ ...keys, RIVALS_PROVIDERS: 'Brave, openai,bedrock,openai' });
    expect(providers.map((p) => p.name)).toEqual(['web-search:brave', 'llm:openai', 'llm:bedrock']);
    expect(providers[0]).toBeInstanceOf(BraveSearchProvider);
    expect(providers[1]).toBeInstanceOf(OpenAiCompatibleProvider);
    expect(providers[2]).toBeInstanceOf(BedrockConverseProvider);
    expect(providersFromEnv({ OPENAI_API_KEY: 'sk-1', RIVALS_PROVIDERS: 'openai' }).map((p) => p.name)).toEqual(['llm:openai']);
  });

  it('falls back to AWS_REGION for Bedrock', () => {
    const env = { RIVALS_PROVIDERS: 'bedrock', BEDROCK_MODEL_ID: 'amazon.nova-lite-v1:0', AWS_REGION: 'eu-central-1' };
    expect(providersFromEnv(env).map((p) => p.name)).toEqual(['llm:bedrock']);
  });

  it('names the missing or malformed variable', () => {
    expect(() => providersFromEnv({ RIVALS_PROVIDERS: 'openai' })).toThrow(/OPENAI_API_KEY/);
    expect(() => providersFromEnv({ RIVALS_PROVIDERS: 'openai', OPENAI_API_KEY: '  ' })).toThrow(/OPENAI_API_KEY/);
    expect(() => providersFromEnv({ RIVALS_PROVIDERS: 'bedrock', BEDROCK_REGION: 'us-east-1' })).toThrow(/BEDROCK_MODEL_ID/);
    expect(() => providersFromEnv({ RIVALS_PROVIDERS: 'bedrock', BEDROCK_MODEL_ID: 'm' })).toThrow(/BEDROCK_REGION/);
    expect(() => providersFromEnv({ RIVALS_PROVIDERS: 'brave' })).toThrow(/BRAVE_SEARCH_API_KEY/);
    expect(() => providersFromEnv({ ...keys, RIVALS_PROVIDERS: 'openai', OPENAI_BASE_URL: 'api.openai.com' })).toThrow(/OPENAI_BASE_URL/);
    expect(() => providersFromEnv({ ...keys, RIVALS_PROVIDERS: 'brave', BRAVE_SEARCH_URL: 'ftp://x' })).toThrow(/BRAVE_SEARCH_URL/);
    expect(() => providersFromEnv({ ...keys, RIVALS_PROVIDERS: 'brave', RIVALS_PROVIDER_TIMEOUT_MS: 'soon' })).toThrow(/RIVALS_PROVIDER_TIMEOUT_MS/);
    expect(() => providersFromEnv({ ...keys, RIVALS_PROVIDERS: 'openai,google' })).toThrow(/RIVALS_PROVIDERS.*"google"/);
  });
});
