// crawler adapter (secondary): public surface of @rivals/crawler, the HomepageReader that reads companies' homepages.
export { createHomepageReader, DEFAULT_USER_AGENT, ROBOTS_TOKEN } from './reader.js';
export type { ClosableHomepageReader, CrawledProfile, HomepageReaderOptions, HomepageReaderTimeouts, HomepageSkip } from './reader.js';
export type { FetchedFrom } from './http.js';
export type { Resolver, TlsOptions } from './connector.js';
export type { SkipReason } from './skip.js';
export { isBlockedAddress } from './address-filter.js';
export { extractFacts, type PageFacts } from './extract.js';
export { checkWebhookUrl, createWebhookTransport, type WebhookTransportOptions } from './webhook.js';
