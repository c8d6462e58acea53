// primary adapter: /api/webhook-endpoint, the account's endpoint for `watchlist.changed` events (docs/monitoring.md),
// one function for its three methods. PUT sets it (https, checked where it leads as bulk webhook URLs are; a signing
// secret must exist), GET reads it (404 when none), DELETE removes it (204 either way).
import { SetWebhookEndpointRequest } from '@rivals/contracts';
import { notFound } from '@rivals/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { httpRoute } from '../shared/http.js';
import { monitorApi } from '../shared/monitor.js';

const put = httpRoute({
  auth: true,
  body: SetWebhookEndpointRequest,
  handler: async ({ principal, body }) => ({ statusCode: 200, body: await monitorApi().setEndpoint(principal.accountId, body.url) }),
});

const get = httpRoute({
  auth: true,
  handler: async ({ principal }) => {
    const endpoint = await monitorApi().getEndpoint(principal.accountId);
    if (!endpoint) throw notFound('webhook endpoint');
    return { statusCode: 200, body: endpoint };
  },
});

const remove = httpRoute({
  auth: true,
  handler: async ({ principal }) => {
    await monitorApi().removeEndpoint(principal.accountId);
    return { statusCode: 204 };
  },
});

export const handler = (event: APIGatewayProxyEvent, context: Context) => (event.httpMethod === 'PUT' ? put : event.httpMethod === 'DELETE' ? remove : get)(event, context);
