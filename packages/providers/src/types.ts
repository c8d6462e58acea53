// providers (plug-in interface): what a candidate provider is given and proposes; the engine verifies and ranks.

// Providers only propose: nothing they return is trusted as a fact about a company until the engine checks it.

/** The company whose competitors are wanted, as far as the engine knows it. */
export interface ProviderTarget {
  domain: string;
  name: string;
  description: string;
  categories: string[];
}

export type ProposedType = 'Direct' | 'Indirect' | 'Adjacent' | 'Emerging';

/** A company a provider thinks competes with the target. `domain` is always a registrable domain. */
export interface ProposedCandidate {
  name: string;
  domain: string;
  type?: ProposedType;
  reason?: string;
}

/** A candidate after merging several providers' lists: how many lists proposed its domain. */
export interface MergedCandidate extends ProposedCandidate {
  votes: number;
}

export interface ProposeOptions {
  /** The most candidates wanted; providers may return fewer. */
  limit: number;
  /** Aborts the call; the provider then rejects with the signal's reason. */
  signal: AbortSignal;
}

/**
 * One source of competitor candidates (a language model, a web search).
 * Resolves [] when the answer is unusable; rejects on abort, on its own timeout and when the service call fails
 * (a ProviderError), so that the caller can tell "nothing found" from "not asked".
 */
export interface CandidateProvider {
  /** Stable id used in logs and evidence: 'llm:openai', 'llm:bedrock', 'web-search:brave'. */
  readonly name: string;
  propose(target: ProviderTarget, options: ProposeOptions): Promise<ProposedCandidate[]>;
}

/** Settings every model-backed provider takes. */
export interface LlmProviderOptions {
  /** Budget for one call, on top of the caller's signal. */
  timeoutMs?: number;
  /** Low by default: the task rewards recall of known companies, not creativity. */
  temperature?: number;
  /** Name reported in evidence, e.g. "llm:openai". */
  name?: string;
}
