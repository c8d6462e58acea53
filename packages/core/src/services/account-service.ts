// core use case: accounts, as an operator manages them (no public sign-up endpoint).
import type { Account, AccountStore, Clock, CreditsLedger, IdGenerator } from '../ports.js';
import { ApiError } from '../errors.js';

export const DEFAULT_FREE_CREDITS = 10;

export class AccountService {
  constructor(private readonly deps: { accounts: AccountStore; ledger: CreditsLedger; clock: Clock; ids: IdGenerator }) {}

  async open(name: string, credits = DEFAULT_FREE_CREDITS, id?: string): Promise<Account> {
    if (!Number.isInteger(credits) || credits < 0) throw new ApiError('invalid_request', 'Opening credits must be a whole number of 0 or more.');
    const account: Account = { id: id ?? this.deps.ids.next('acct'), name, credits, createdAt: this.deps.clock.now().toISOString() };
    await this.deps.accounts.create(account);
    return account;
  }

  get(accountId: string): Promise<Account | null> {
    return this.deps.accounts.get(accountId);
  }

  grant(accountId: string, credits: number, reason = 'operator grant'): Promise<number> {
    if (!Number.isInteger(credits) || credits <= 0) throw new ApiError('invalid_request', 'A grant is a whole number of credits above 0.');
    return this.deps.accounts.grant(accountId, credits, reason);
  }

  balance(accountId: string): Promise<number> {
    return this.deps.ledger.balance(accountId);
  }
}
