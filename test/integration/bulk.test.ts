// Bulk jobs on DynamoDB Local: the reservation, exactly-once outcomes under redelivery, crashes, the sweeper, cancel.
import { describe, expect, it } from 'vitest';
import { ApiError, MAX_AWAITING_UPLOADS } from '@rivals/core';
import { ScriptedEngine, competitor } from '../fakes.js';
import { bulkOn, ManualClock } from '../setup/bulk.js';
import { freshTable } from '../setup/table.js';

const engine = () =>
  new ScriptedEngine((domain) => {
    if (domain.startsWith('empty')) return { targetSource: 'none', competitors: [], failureReason: 'homepage_too_thin' };
    if (domain.startsWith('broken')) throw new Error('unreachable');
    return { targetSource: 'knowledge-base', competitors: [competitor(1), competitor(2)] };
  });

async function setup(credits: number, options: Parameters<typeof bulkOn>[2] = {}) {
  const table = await freshTable();
  const s = bulkOn(table, engine(), options);
  const { id: accountId } = await s.accounts.open('Bulk test', credits);
  return { ...s, accountId, table };
}

const csv = (...rows: string[]) => [rows.join('\n')];

describe('bulk jobs on DynamoDB Local', () => {
  it('reserves the whole job in one write and answers 402 with nothing created when short', async () => {
    const s = await setup(3);
    await expect(s.bulk.upload(s.accountId, csv('a.com', 'b.com', 'c.com', 'd.com'), { limit: 5 })).rejects.toMatchObject({ code: 'insufficient_credits' });
    expect((await s.bulk.list(s.accountId, { limit: 50 })).items).toEqual([]);
    expect(s.queue.messages).toEqual([]);

    const accepted = await s.bulk.upload(s.accountId, csv('domain', 'a.com', 'not a domain', 'a.com', 'b.com'), { limit: 5 });
    expect(accepted).toMatchObject({ status: 'queued', totalDomains: 2, creditsReserved: 2, creditsRemaining: 1 });
    expect(accepted.rejectedRows).toEqual([{ row: 3, value: 'not a domain', reason: 'not a public company domain' }]);
    expect(s.queue.messages).toHaveLength(2);
  });

  it('charges good domains and refunds failed ones exactly once, whatever the queue redelivers', async () => {
    const s = await setup(10);
    const { jobId } = await s.bulk.upload(s.accountId, csv('good1.com', 'empty.com', 'broken.com', 'good2.com'), { limit: 5 });
    const messages = s.queue.take();
    // Every message delivered three times, the copies at the same time.
    await Promise.all([...messages, ...messages, ...messages].map((m) => s.worker.process(m)));
    await Promise.all(messages.map((m) => s.worker.process(m)));

    const job = await s.bulk.get(s.accountId, jobId, { limit: 50 });
    expect(job).toMatchObject({ status: 'completed', totalDomains: 4, completedDomains: 2, failedDomains: 2, creditsCharged: 2, creditsRefunded: 2 });
    expect(job.results.map((r) => [r.domain, r.status, r.error, r.reason])).toEqual([
      ['good1.com', 'succeeded', null, null],
      ['empty.com', 'failed', 'no_competitors_found', 'homepage_too_thin'],
      ['broken.com', 'failed', 'research_failed', null],
      ['good2.com', 'succeeded', null, null],
    ]);
    expect(await s.ledger.balance(s.accountId)).toBe(8);
    // Every domain's search is in history, readable for free.
    const search = await s.searches.get(s.accountId, job.results[0]!.searchId!);
    expect(search).toMatchObject({ status: 'succeeded', source: 'bulk', jobId, totalCompetitors: 2 });
    expect(await s.searches.get(s.accountId, job.results[1]!.searchId!)).toMatchObject({ status: 'failed', reason: 'homepage_too_thin' });
  });

  it('downloads a CSV whose company and domain agree: a product line is named beside its company, failures say why', async () => {
    const table = await freshTable();
    const woo = competitor(1, { company: 'WooCommerce', domain: 'automattic.com', evidence: { ...competitor(1).evidence, parentCompany: 'Automattic', entity: 'woocommerce.com' } });
    const s = bulkOn(table, new ScriptedEngine((domain) => (domain.startsWith('empty') ? { targetSource: 'none', competitors: [], failureReason: 'homepage_unreachable' } : { targetSource: 'knowledge-base', competitors: [woo, competitor(2)] })));
    const { id: accountId } = await s.accounts.open('CSV', 5);
    const { jobId } = await s.bulk.upload(accountId, csv('shop.com', 'empty.com'), { limit: 5 });
    for (const m of s.queue.take()) await s.worker.process(m);
    let text = '';
    for await (const line of s.bulk.download(accountId, jobId, s.searches)) text += line;
    expect(text.split('\r\n')).toEqual([
      'sourceDomain,rank,company,product,domain,matchScore,type,confidence,likelyCompetitor,error,reason,founded,size,hq,ownership,exchange,ticker',
      'shop.com,1,Automattic,WooCommerce,automattic.com,89,Direct,80,false,,,2011,51-200,US,private,,',
      'shop.com,2,Rival 2,,rival2.com,88,Direct,80,true,,,2012,51-200,US,private,,',
      'empty.com,,,,,,,,,no_competitors_found,homepage_unreachable,,,,,,',
      '',
    ]);
  });

  it('researches every domain with the job\'s filters, recorded on the job and on each search', async () => {
    const table = await freshTable();
    let asked: unknown;
    const s = bulkOn(table, new ScriptedEngine((domain) => ({ targetSource: 'knowledge-base', competitors: [competitor(1)] })));
    const spying = bulkOn(table, { research: async (request) => ((asked = request.filters), { targetSource: 'knowledge-base', competitors: [competitor(1)] }) });
    const { id: accountId } = await s.accounts.open('Filters', 5);
    const filters = { exclude: ['https://www.Rival1.com/'], types: ['Direct' as const], minMatchScore: 40, countries: ['de', 'FR'] };
    const { jobId } = await spying.bulk.upload(accountId, csv('good.com'), { limit: 5, ...filters });
    for (const m of spying.queue.take()) await spying.worker.process(m);
    const normalised = { exclude: ['rival1.com'], types: ['Direct'], minMatchScore: 40, countries: ['DE', 'FR'] };
    expect(asked).toEqual(normalised);
    const job = await spying.bulk.get(accountId, jobId, { limit: 5 });
    expect(job.filters).toEqual(normalised);
    expect((await spying.searches.get(accountId, job.results[0]!.searchId!))?.filters).toEqual(normalised);
    await expect(spying.bulk.upload(accountId, csv('good.com'), { limit: 5, exclude: ['localhost'] })).rejects.toMatchObject({ code: 'invalid_domain' });
    expect(await s.ledger.balance(accountId)).toBe(4);
  });

  it('takes over a domain whose worker crashed mid-research, and charges it once', async () => {
    const clock = new ManualClock();
    const s = await setup(5, { clock });
    const { jobId } = await s.bulk.upload(s.accountId, csv('good.com'), { limit: 5 });
    const [message] = s.queue.take();
    // The worker claims the domain and dies.
    expect(await s.jobs.claimDomain(jobId, 1, clock.now().toISOString(), new Date(0).toISOString())).not.toBeNull();
    expect(await s.worker.process(message!)).toBe('skipped'); // a duplicate while it is fresh
    clock.advance(121_000);
    expect(await s.worker.process(message!)).toBe('succeeded');
    expect(await s.worker.process(message!)).toBe('skipped');
    expect(await s.bulk.get(s.accountId, jobId, { limit: 5 })).toMatchObject({ status: 'completed', creditsCharged: 1, creditsRefunded: 0 });
    expect(await s.ledger.balance(s.accountId)).toBe(4);
  });

  it('sweeps a domain stuck running past its deadline: refunded and failed once, job completed', async () => {
    const clock = new ManualClock();
    const s = await setup(5, { clock });
    const { jobId } = await s.bulk.upload(s.accountId, csv('good.com', 'other.com'), { limit: 5 });
    const [first, second] = s.queue.take();
    await s.worker.process(first!);
    await s.jobs.claimDomain(jobId, 2, clock.now().toISOString(), new Date(0).toISOString()); // then it dies
    void second;
    expect(await s.sweeper.sweep()).toMatchObject({ refunded: 0 });
    clock.advance(31 * 60_000);
    expect(await s.sweeper.sweep()).toMatchObject({ refunded: 1, finished: 1 });
    expect(await s.sweeper.sweep()).toMatchObject({ refunded: 0, finished: 0 });
    expect(await s.worker.process(second!)).toBe('skipped'); // a redrive after the sweep changes nothing
    expect(await s.bulk.get(s.accountId, jobId, { limit: 5 })).toMatchObject({ status: 'completed', completedDomains: 1, failedDomains: 1, creditsCharged: 1, creditsRefunded: 1 });
    expect(await s.ledger.balance(s.accountId)).toBe(4);
  });

  it('cancels mid-run: pending domains refunded at once, later messages do nothing', async () => {
    const s = await setup(300);
    const domains = Array.from({ length: 205 }, (_, i) => `good${i}.com`);
    const { jobId } = await s.bulk.upload(s.accountId, csv(...domains), { limit: 5 });
    const messages = s.queue.take();
    await Promise.all(messages.slice(0, 5).map((m) => s.worker.process(m)));
    await s.bulk.cancel(s.accountId, jobId);
    await s.bulk.cancel(s.accountId, jobId); // idempotent
    await Promise.all(messages.slice(5, 20).map((m) => s.worker.process(m)));
    const job = await s.bulk.get(s.accountId, jobId, { limit: 10 });
    expect(job).toMatchObject({ status: 'cancelled', completedDomains: 5, cancelledDomains: 200, creditsCharged: 5, creditsRefunded: 200 });
    expect(job.finishedAt).not.toBeNull();
    expect(job.results).toHaveLength(10);
    expect(job.nextCursor).toEqual(expect.any(String));
    expect(await s.ledger.balance(s.accountId)).toBe(295);
  });

  it('never lets two concurrent jobs spend the same credits', async () => {
    const s = await setup(5);
    const results = await Promise.allSettled([
      s.bulk.upload(s.accountId, csv('a.com', 'b.com', 'c.com'), { limit: 5 }),
      s.bulk.upload(s.accountId, csv('d.com', 'e.com', 'f.com'), { limit: 5 }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'insufficient_credits' } });
    expect(await s.ledger.balance(s.accountId)).toBe(2);
  });

  it('starts a presigned job when its file lands, or fails it with nothing charged when credits are short', async () => {
    const s = await setup(2);
    const ok = await s.bulk.createUploadUrl(s.accountId, { limit: 5, sizeBytes: 29 });
    const short = await s.bulk.createUploadUrl(s.accountId, { limit: 5, sizeBytes: 6 });
    expect((await s.bulk.get(s.accountId, ok.jobId, { limit: 5 })).status).toBe('awaiting_upload');
    s.uploads.objects.set(`uploads/${s.accountId}/${ok.jobId}.csv`, Buffer.from('website\nstripe.com\nadyen.com\n'));
    s.uploads.objects.set(`uploads/${s.accountId}/${short.jobId}.csv`, Buffer.from('x.com\n'));
    await s.bulk.uploadLanded(`uploads/${s.accountId}/${ok.jobId}.csv`);
    await s.bulk.uploadLanded(`uploads/${s.accountId}/${ok.jobId}.csv`); // S3 delivers twice
    await s.bulk.uploadLanded(`uploads/${s.accountId}/${short.jobId}.csv`);
    expect(await s.bulk.get(s.accountId, ok.jobId, { limit: 5 })).toMatchObject({ status: 'queued', totalDomains: 2, creditsReserved: 2 });
    expect(await s.bulk.get(s.accountId, short.jobId, { limit: 5 })).toMatchObject({ status: 'failed', error: 'insufficient_credits', creditsReserved: 0 });
    expect(s.queue.messages).toHaveLength(2);
    expect(await s.ledger.balance(s.accountId)).toBe(0);
  });

  it('caps the jobs awaiting their upload per account (409), counting only those whose URL still lives', async () => {
    const s = await setup(5);
    const made = [];
    for (let i = 0; i < MAX_AWAITING_UPLOADS; i++) made.push(await s.bulk.createUploadUrl(s.accountId, { limit: 5, sizeBytes: 100 }));
    await expect(s.bulk.createUploadUrl(s.accountId, { limit: 5, sizeBytes: 100 })).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/awaiting their upload/) });
    // Another account is not held back; a landed file frees its place.
    const other = await s.accounts.open('Other', 5);
    await expect(s.bulk.createUploadUrl(other.id, { limit: 5, sizeBytes: 100 })).resolves.toMatchObject({ jobId: expect.any(String) });
    s.uploads.objects.set(`uploads/${s.accountId}/${made[0]!.jobId}.csv`, Buffer.from('stripe.com\n'));
    await s.bulk.uploadLanded(`uploads/${s.accountId}/${made[0]!.jobId}.csv`);
    await expect(s.bulk.createUploadUrl(s.accountId, { limit: 5, sizeBytes: 100 })).resolves.toMatchObject({ jobId: expect.any(String) });
    await expect(s.bulk.createUploadUrl(s.accountId, { limit: 5, sizeBytes: 51 * 1024 * 1024 })).rejects.toMatchObject({ code: 'payload_too_large' });
  });

  it('fails a job whose file was replaced after its check, or grew past the cap while read, charging nothing', async () => {
    const s = await setup(5);
    const swapped = await s.bulk.createUploadUrl(s.accountId, { limit: 5, sizeBytes: 11 });
    const key = `uploads/${s.accountId}/${swapped.jobId}.csv`;
    s.uploads.objects.set(key, Buffer.from('stripe.com\n'));
    // The read finds another version than the one checked (as S3 answers If-Match with 412).
    const read = s.uploads.read;
    s.uploads.read = async () => {
      throw new ApiError('conflict', 'replaced', { details: [{ field: 'file', problem: 'changed' }] });
    };
    await s.bulk.uploadLanded(key);
    expect(await s.bulk.get(s.accountId, swapped.jobId, { limit: 5 })).toMatchObject({ status: 'failed', error: 'upload_changed', creditsReserved: 0 });
    s.uploads.read = async () => (async function* () {
      throw new ApiError('payload_too_large', 'grew', { details: [{ field: 'file', problem: 'too large' }] });
    })();
    const grown = await s.bulk.createUploadUrl(s.accountId, { limit: 5, sizeBytes: 11 });
    s.uploads.objects.set(`uploads/${s.accountId}/${grown.jobId}.csv`, Buffer.from('stripe.com\n'));
    await s.bulk.uploadLanded(`uploads/${s.accountId}/${grown.jobId}.csv`);
    expect(await s.bulk.get(s.accountId, grown.jobId, { limit: 5 })).toMatchObject({ status: 'failed', error: 'upload_too_large', creditsReserved: 0 });
    s.uploads.read = read;
    expect(await s.ledger.balance(s.accountId)).toBe(5);
  });

  it('hides another account\'s job and rejects a cursor of another partition', async () => {
    const s = await setup(5);
    const other = await s.accounts.open('Other', 5);
    const { jobId } = await s.bulk.upload(s.accountId, csv('a.com'), { limit: 5 });
    await expect(s.bulk.get(other.id, jobId, { limit: 5 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(s.bulk.cancel(other.id, jobId)).rejects.toMatchObject({ code: 'not_found' });
    const forged = Buffer.from(JSON.stringify({ pk: `ACCOUNT#${s.accountId}`, sk: 'JOB#x' })).toString('base64url');
    await expect(s.bulk.list(other.id, { limit: 5, cursor: forged })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
