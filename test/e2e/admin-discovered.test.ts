// The operator's commands on the discovered layer, against a table on DynamoDB Local: list, show, ban, unban, export.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { DiscoveredCompany } from '@rivals/core';
import { DynamoDiscoveredStore, DynamoKbImportStore } from '@rivals/db';
import { SectorFile } from '../../packages/kb/src/schema.js';
import { freshTable } from '../setup/table.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

async function admin(endpoint: string, table: string, ...args: string[]) {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join(ROOT, 'packages/local/src/admin.ts'), '--table', table, ...args], {
    cwd: ROOT,
    env: { ...process.env, AWS_ENDPOINT_URL_DYNAMODB: endpoint, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' },
  });
  return stdout;
}

const company = (domain: string, name: string, country: string | null): DiscoveredCompany => ({
  domain, name, description: `${name} sells sourdough bread and pastries.`, language: 'en', categories: [{ id: 'crm', weight: 1 }], terms: ['sourdough', 'bread', 'pastri'],
  country, url: `https://${domain}/`, fetchedAt: '2026-11-20T00:00:00.000Z', via: 'bulk',
});

describe('npm run admin -- discovered', () => {
  it('lists, shows, bans, unbans and exports the discovered layer', { timeout: 120_000 }, async () => {
    const table = await freshTable();
    const store = new DynamoDiscoveredStore(table);
    await store.save(company('crumb-bakery.com', 'Crumb Bakery', 'GB'));
    await store.save(company('brotzeit-baeckerei.de', 'Brotzeit', null));
    const cli = (...args: string[]) => admin(table.endpoint, table.tableName, 'discovered', ...args);

    const listed = JSON.parse(await cli('list'));
    expect(listed.items.map((c: { domain: string }) => c.domain)).toEqual(['brotzeit-baeckerei.de', 'crumb-bakery.com']);
    expect(listed.items[1]).toMatchObject({ name: 'Crumb Bakery', categories: ['crm'], country: 'GB', via: 'bulk' });
    expect(JSON.parse(await cli('show', 'crumb-bakery.com'))).toMatchObject({ company: { domain: 'crumb-bakery.com' }, banned: false });

    const dir = mkdtempSync(join(tmpdir(), 'rivals-export-'));
    await cli('export', '--out', join(dir, 'discovered.yaml'));
    const exported = parse(readFileSync(join(dir, 'discovered.yaml'), 'utf8'));
    const parsed = SectorFile.safeParse(exported);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(parsed.data!.companies.map((c) => [c.domain, c.hq])).toEqual([['brotzeit-baeckerei.de', 'ZZ'], ['crumb-bakery.com', 'GB']]);

    expect(JSON.parse(await cli('ban', 'crumb-bakery.com', '--reason', 'spam'))).toEqual({ banned: 'crumb-bakery.com' });
    expect(JSON.parse(await cli('show', 'crumb-bakery.com'))).toEqual({ company: null, banned: true });
    expect(JSON.parse(await cli('list')).items.map((c: { domain: string }) => c.domain)).toEqual(['brotzeit-baeckerei.de']);
    expect(await store.save(company('crumb-bakery.com', 'Crumb Bakery', 'GB'))).toBe('banned');
    expect(JSON.parse(await cli('unban', 'crumb-bakery.com'))).toEqual({ unbanned: 'crumb-bakery.com' });
    expect(await store.save(company('crumb-bakery.com', 'Crumb Bakery', 'GB'))).toBe('saved');
    await expect(cli('unban', 'crumb-bakery.com')).rejects.toThrow(/is not banned/);
  });
});

describe('npm run admin -- kb import', () => {
  it('imports a CSV of the team\'s companies into the table, and refuses a file with an unknown category, naming the row', { timeout: 120_000 }, async () => {
    const table = await freshTable();
    const dir = mkdtempSync(join(tmpdir(), 'rivals-import-'));
    const good = join(dir, 'ours.csv');
    writeFileSync(good, 'domain,name,description,categories,competitors\ndealdesk.io,DealDesk,A CRM for agencies that tracks deals and client contacts.,crm,pipedrive.com\n');
    expect(JSON.parse(await admin(table.endpoint, table.tableName, 'kb', 'import', good))).toMatchObject({ imported: 1, domains: ['dealdesk.io'] });
    const store = new DynamoKbImportStore(table);
    expect(await store.version()).toMatch(/^\d{4}-/);
    expect(await store.companies()).toEqual([expect.objectContaining({ domain: 'dealdesk.io', categories: ['crm'], competes: { 'pipedrive.com': 0.8 } })]);

    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'domain,name,description,categories,competitors\nother.io,Other,Another CRM for small agencies.,crm;no-such-category,\n');
    await expect(admin(table.endpoint, table.tableName, 'kb', 'import', bad)).rejects.toThrow(/row 2 \(other\.io\): unknown category no-such-category/);
    expect((await store.companies()).length).toBe(1);
  });
});
