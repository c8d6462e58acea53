// primary adapter: POST /api/saved-companies. 201 with the new row; 200 with the row saved before, unchanged. Free.
// A new row is watched: the competitor set a search of it shows is recorded as its baseline (docs/monitoring.md).
import { SaveCompanyRequest } from '@rivals/contracts';
import { services } from '../shared/container.js';
import { httpRoute } from '../shared/http.js';
import { monitorChecks } from '../shared/research.js';

export const handler = httpRoute({
  auth: true,
  body: SaveCompanyRequest,
  handler: async ({ principal, body }) => {
    const { row, created } = await services().watchlist.save(principal.accountId, body);
    if (!created) return { statusCode: 200, body: row };
    // Without a baseline (the research failed), the monitor's first check records one and reports nothing.
    const lastCheckedAt = await monitorChecks().watch({ accountId: principal.accountId, domain: row.domain });
    return { statusCode: 201, body: { ...row, lastCheckedAt } };
  },
});
