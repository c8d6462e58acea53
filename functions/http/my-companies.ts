// primary adapter: GET /api/my-companies. Every company the account's searches found, most often found first, as JSON
// or (?format=csv) as a CSV export. Free.
import { MyCompaniesQuery } from '@rivals/contracts';
import { services } from '../shared/container.js';
import { httpRoute } from '../shared/http.js';

export const handler = httpRoute({
  auth: true,
  query: MyCompaniesQuery,
  handler: async ({ principal, query }) => {
    if (query.format === 'json') return { statusCode: 200, body: await services().myCompanies.list(principal.accountId) };
    return {
      statusCode: 200,
      headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="my-companies.csv"' },
      text: await services().myCompanies.csv(principal.accountId),
    };
  },
});
