// sdk-node: the browser's surface of @rivals/sdk (the dashboard's): the client, its errors and types, without the
// webhook verification, which needs Node's crypto.
export { Rivals, DIRECT_UPLOAD_MAX_BYTES, type BulkProgress, type BulkRunOptions } from './client.js';
export { parseRetryAfter, type ClientOptions, type RequestOptions } from './transport.js';
export * from './errors.js';
export * from './types.js';
