// providers: optional candidate providers (language models, web search) behind one plug-in interface.
export * from './types.js';
export { ProviderError, type ProviderFailure } from './errors.js';
export { DEFAULT_TIMEOUT_MS } from './deadline.js';
export { OpenAiCompatibleProvider, type OpenAiCompatibleOptions } from './openai.js';
export { BedrockConverseProvider, type BedrockConverseOptions } from './bedrock.js';
export { BraveSearchProvider, type BraveSearchOptions } from './brave.js';
export { buildPrompt, parseProposals, MAX_PROPOSALS, type Prompt } from './prompt.js';
export { candidateDomain, NON_COMPETITOR_DOMAINS } from './domains.js';
export { mergeProposals } from './merge.js';
export { providersFromEnv, PROVIDER_KINDS, type Env, type ProviderKind } from './env.js';
