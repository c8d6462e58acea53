// core use case: the ledger audit. Every balance change is written with a ledger entry in one transaction, so an
// account's balance must equal the sum of its entries (opening credits and grants, minus charges, plus refunds).
import type { CreditsLedger, LedgerEntries } from '../ports.js';

export interface LedgerAuditReport {
  accountId: string;
  balance: number;
  /** Sum of the entries, by reason ("opening credits", "search", "refund", "bulk reserve", ...). */
  byReason: Record<string, number>;
  entries: number;
  ledgerTotal: number;
  /** balance === ledgerTotal and the balance is not negative. */
  consistent: boolean;
}

export class LedgerAudit {
  constructor(private readonly deps: { entries: LedgerEntries; ledger: CreditsLedger }) {}

  async audit(accountId: string): Promise<LedgerAuditReport> {
    // The balance is read after the entries: a change landing in between shows as a mismatch, never hides one; run again.
    const entries = await this.deps.entries.list(accountId);
    const balance = await this.deps.ledger.balance(accountId);
    const byReason: Record<string, number> = {};
    for (const e of entries) byReason[e.reason] = (byReason[e.reason] ?? 0) + e.amount;
    const ledgerTotal = entries.reduce((sum, e) => sum + e.amount, 0);
    return { accountId, balance, byReason, entries: entries.length, ledgerTotal, consistent: balance === ledgerTotal && balance >= 0 };
  }
}
