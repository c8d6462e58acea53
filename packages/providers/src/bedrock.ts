// providers adapter (secondary): candidates from a model on Amazon Bedrock through the model-agnostic Converse API.
// The SDK client is imported when the provider is first used, so that a function with providers off never loads it.
import type { BedrockRuntimeClient, ConverseCommandOutput } from '@aws-sdk/client-bedrock-runtime';
import { DEFAULT_TIMEOUT_MS, withDeadline } from './deadline.js';
import { messageOf, ProviderError } from './errors.js';
import { buildPrompt, clampLimit, parseProposals } from './prompt.js';
import type { CandidateProvider, LlmProviderOptions, ProposeOptions, ProposedCandidate, ProviderTarget } from './types.js';

export interface BedrockConverseOptions extends LlmProviderOptions {
  /** A model id or inference profile, e.g. "anthropic.claude-3-5-haiku-20241022-v1:0". */
  modelId: string;
  region: string;
  /**
   * Overrides the regional endpoint (a VPC endpoint, or a local fake in tests). This client's default handler speaks
   * HTTP/2 only, so a plain-http endpoint must accept HTTP/2 without TLS (h2c).
   */
  endpoint?: string;
  /** Static credentials; the default provider chain (the Lambda role) when absent. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** SDK attempts per call. Two by default: one retry of a throttle fits the budget, three rarely do. */
  maxAttempts?: number;
  /** A ready client, to share one across providers or to inject in tests. */
  client?: BedrockRuntimeClient;
}

const sdk = () => import('@aws-sdk/client-bedrock-runtime');

export class BedrockConverseProvider implements CandidateProvider {
  readonly name: string;
  private client: Promise<BedrockRuntimeClient> | undefined;

  constructor(private readonly options: BedrockConverseOptions) {
    this.name = options.name ?? 'llm:bedrock';
    if (options.client) this.client = Promise.resolve(options.client);
  }

  private clientOf(): Promise<BedrockRuntimeClient> {
    const { region, maxAttempts, endpoint, credentials } = this.options;
    this.client ??= sdk().then(
      ({ BedrockRuntimeClient }) =>
        new BedrockRuntimeClient({ region, maxAttempts: maxAttempts ?? 2, ...(endpoint ? { endpoint } : {}), ...(credentials ? { credentials } : {}) }),
    );
    return this.client;
  }

  async propose(target: ProviderTarget, { limit, signal }: ProposeOptions): Promise<ProposedCandidate[]> {
    const prompt = buildPrompt(target, limit);
    const [{ ConverseCommand }, client] = await Promise.all([sdk(), this.clientOf()]);
    const command = new ConverseCommand({
      modelId: this.options.modelId,
      system: [{ text: prompt.system }],
      messages: [{ role: 'user', content: [{ text: prompt.user }] }],
      // Room for about 80 tokens per candidate; the ceiling also keeps a rambling model inside the time budget.
      inferenceConfig: { maxTokens: 400 + 80 * clampLimit(limit), temperature: this.options.temperature ?? 0.2 },
    });
    const output = await withDeadline(this.name, signal, this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS, async (deadline) => {
      try {
        return await client.send(command, { abortSignal: deadline });
      } catch (error) {
        if (deadline.aborted) throw error;
        // A 2xx the SDK could not deserialize is an unreadable answer, not a failed call.
        if (isSuccessStatus(statusOf(error))) return null;
        throw this.failure(error);
      }
    });
    // Read whatever the stop reason: a cut-off answer ("max_tokens") is unclosed JSON, which parses to [].
    return parseProposals(textOf(output), target, limit);
  }

  private failure(error: unknown): ProviderError {
    const status = statusOf(error);
    const name = (error as { name?: string })?.name ?? 'Error';
    if (typeof status === 'number' && status >= 400) {
      return new ProviderError(this.name, 'http', `${name} (HTTP ${status}): ${messageOf(error)}`, status, { cause: error });
    }
    return new ProviderError(this.name, 'network', `${name}: ${messageOf(error)}`, status, { cause: error });
  }
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function isSuccessStatus(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}

function textOf(output: ConverseCommandOutput | null): string | null {
  const content = output?.output?.message?.content;
  if (!Array.isArray(content)) return null;
  return content.map((block) => (typeof block.text === 'string' ? block.text : '')).join('');
}
