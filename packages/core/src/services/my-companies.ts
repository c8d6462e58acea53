// core use case: every company the account's searches have found, aggregated (free). The rows are kept up to date
// when each search settles (see packages/db/src/companies.ts); a read never scans the searches.
import { firmographicsCells, MY_COMPANIES_CSV_COLUMNS, MY_COMPANIES_MAX, type MyCompanies as MyCompaniesBody } from '@rivals/contracts';
import { toCsv } from '../csv.js';
import type { CompanyStore } from '../ports.js';

export class MyCompanies {
  constructor(private readonly companies: CompanyStore) {}

  /** Most often found first, at most MY_COMPANIES_MAX rows; `total` counts them all. */
  async list(accountId: string): Promise<MyCompaniesBody> {
    // A search whose aggregation a crash interrupted is finished first, so that the list never misses it for long.
    await this.companies.catchUp(accountId);
    return this.companies.top(accountId, MY_COMPANIES_MAX);
  }

  /** The same rows as CSV; list cells (types, foundFor) are joined with "; ". */
  async csv(accountId: string): Promise<string> {
    const { items } = await this.list(accountId);
    return toCsv(
      MY_COMPANIES_CSV_COLUMNS,
      items.map((c) => [c.company, c.product, c.domain, c.timesFound, c.bestMatchScore, c.types.join('; '), c.firstSeenAt, c.lastSeenAt, c.foundFor.join('; '), ...firmographicsCells(c.firmographics)]),
    );
  }
}
