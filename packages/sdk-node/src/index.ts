// sdk-node: the public surface of @rivals/sdk.
export { Rivals, DIRECT_UPLOAD_MAX_BYTES, type BulkProgress, type BulkRunOptions } from './client.js';
export { DEFAULT_BASE_URL, SDK_VERSION, parseRetryAfter, type ClientOptions, type RequestOptions } from './transport.js';
export * from './errors.js';
export * from './types.js';
export { verifyWebhook, signWebhook, WebhookSignatureError, SIGNATURE_HEADER, type VerifyOptions } from './webhooks.js';
/** The CSV cell writer of every Rivals CSV (formula leads neutralised, separators and line breaks quoted). */
export { csvCell, csvRow, toCsv } from '@rivals/contracts';
export { configDir, configPath, loadConfig, type StoredConfig } from './config.js';
