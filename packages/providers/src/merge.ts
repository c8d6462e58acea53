// providers (pure): one list out of several providers' proposals, with how many of them agreed on each domain.
import { candidateDomain } from './domains.js';
import type { MergedCandidate, ProposedCandidate } from './types.js';

/**
 * Merges lists by registrable domain. The first list to name a domain gives its name, and the first list to give a type
 * or reason supplies it; `votes` counts the lists that named the domain (a list naming it twice counts once). Ordered
 * by votes, then by the best position any list gave it, then by first appearance. Entries without a valid domain are
 * dropped.
 */
export function mergeProposals(lists: ProposedCandidate[][]): MergedCandidate[] {
  const merged = new Map<string, { candidate: MergedCandidate; best: number; order: number }>();
  lists.forEach((list) => {
    const counted = new Set<string>();
    list.forEach((proposal, position) => {
      const domain = candidateDomain(proposal.domain);
      if (!domain || counted.has(domain)) return;
      counted.add(domain);
      const existing = merged.get(domain);
      if (!existing) {
        const candidate: MergedCandidate = { name: proposal.name || domain, domain, votes: 1 };
        if (proposal.type) candidate.type = proposal.type;
        if (proposal.reason) candidate.reason = proposal.reason;
        merged.set(domain, { candidate, best: position, order: merged.size });
        return;
      }
      existing.candidate.votes += 1;
      existing.best = Math.min(existing.best, position);
      if (!existing.candidate.type && proposal.type) existing.candidate.type = proposal.type;
      if (!existing.candidate.reason && proposal.reason) existing.candidate.reason = proposal.reason;
    });
  });
  return [...merged.values()]
    .sort((a, b) => b.candidate.votes - a.candidate.votes || a.best - b.best || a.order - b.order)
    .map((m) => m.candidate);
}
