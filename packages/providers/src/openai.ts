// providers adapter (secondary): any OpenAI-compatible chat completions endpoint (OpenAI, vLLM, LiteLLM), JSON mode.
import { DEFAULT_TIMEOUT_MS, withDeadline } from './deadline.js';
import { fetchText } from './http.js';
import { buildPrompt, parseProposals } from './prompt.js';
import type { CandidateProvider, LlmProviderOptions, ProposeOptions, ProposedCandidate, ProviderTarget } from './types.js';

export interface OpenAiCompatibleOptions extends LlmProviderOptions {
  /** Base URL including the version path, e.g. https://api.openai.com/v1; /chat/completions is appended. */
  baseUrl: string;
  apiKey: string;
  model: string;
}

export class OpenAiCompatibleProvider implements CandidateProvider {
  readonly name: string;
  private readonly url: string;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    this.name = options.name ?? 'llm:openai';
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  async propose(target: ProviderTarget, { limit, signal }: ProposeOptions): Promise<ProposedCandidate[]> {
    const prompt = buildPrompt(target, limit);
    const body = {
      model: this.options.model,
      messages: [
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
      ],
      response_format: { type: 'json_object' },
      temperature: this.options.temperature ?? 0.2,
    };
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const answer = await withDeadline(this.name, signal, timeoutMs, (deadline) =>
      fetchText(this.name, this.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.options.apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: deadline,
      }),
    );
    return parseProposals(contentOf(answer), target, limit);
  }
}

/** The assistant's message text from a chat completion body; null for anything else (a refusal, an HTML page). */
function contentOf(body: string): string | null {
  let json: { choices?: { message?: { content?: unknown } }[] };
  try {
    json = JSON.parse(body) as typeof json;
  } catch {
    return null;
  }
  const content = json?.choices?.[0]?.message?.content;
  if (typeof content === 'string') return content;
  // Some compatible servers return content parts instead of one string.
  if (Array.isArray(content)) return content.map(partText).join('');
  return null;
}

function partText(part: unknown): string {
  const text = (part as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : '';
}
