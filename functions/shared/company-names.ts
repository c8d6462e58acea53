// composition root: the name a saved company goes by when the caller gives none (`rivals saved add linear.app`): the
// name the account's own searches found it under, else the knowledge base's, else what its homepage said when it was
// read for a search (the cached profile). The knowledge base is loaded on first need only.
import type { CompanyNameLookup } from '@rivals/core';
import { DynamoCompanyStore, DynamoProfileCache, type TableRef } from '@rivals/db';

/** "Linear – Plan and build products" -> "Linear": a page title's first part names the company. */
const titleName = (title: string) => title.split(/\s+[|–—:-]\s+/)[0]!.trim();

export function companyNameLookup(table: TableRef): CompanyNameLookup {
  const companies = new DynamoCompanyStore(table);
  const profiles = new DynamoProfileCache(table);
  return async (accountId, domain) => {
    const found = await companies.nameOf(accountId, domain);
    if (found) return found;
    // Imported on first need: no other function evaluates the engine at init.
    const { createEngine } = await import('@rivals/engine');
    const engine = createEngine();
    const known = engine.model.resolve(domain);
    if (known !== undefined) return engine.model.entity(known).name;
    const profile = await profiles.get(domain);
    const name = profile?.organizationName ?? (profile?.title ? titleName(profile.title) : '');
    return name ? name.slice(0, 200) : null;
  };
}
