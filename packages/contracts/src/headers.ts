// contracts: headers on every API response, from the handlers (functions/shared/http.ts), the local front's own answers
// and API Gateway's (infra/stacks/api-stack.ts repeats them, infra importing no runtime code). The body is JSON and nothing
// else, and no cache keeps it: responses are per key, often per request.
export const API_RESPONSE_HEADERS = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' } as const;
