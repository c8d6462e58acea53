// primary adapter: GET /api/webhook-endpoint. The account's endpoint for `watchlist.changed` events; 404 when none.
import { notFound } from '@rivals/core';
import { httpRoute } from '../shared/http.js';
import { monitorApi } from '../shared/monitor.js';

export const handler = httpRoute({
  auth: true,
  handler: async ({ principal }) => {
    const endpoint = await monitorApi().getEndpoint(principal.accountId);
    if (!endpoint) throw notFound('webhook endpoint');
    return { statusCode: 200, body: endpoint };
  },
});
