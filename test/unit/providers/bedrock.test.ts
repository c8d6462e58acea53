// BedrockConverseProvider against a local fake Converse endpoint (h2c): the signed request and the reading of answers.
// The fake speaks HTTP/2 because this client's default SDK handler speaks nothing else.
import { describe, expect, it } from 'vitest';
import { BedrockConverseProvider, ProviderError } from '@rivals/providers';
import { itHonoursCancellation } from './contract.js';
import { noAbort, target, useFakeServer } from './fake-server.js';

const MODEL_ID = 'anthropic.claude-3-5-haiku-20241022-v1:0';

const server = useFakeServer({ http2: true });

const provider = (timeoutMs = 3_000) =>
  new BedrockConverseProvider({
    modelId: MODEL_ID,
    region: 'eu-west-1',
    endpoint: server.url,
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    maxAttempts: 1,
    timeoutMs,
  });
/** A Converse response whose assistant message holds these text blocks. */
const converse = (...texts: string[]) => ({
  body: {
    output: { message: { role: 'assistant', content: texts.map((text) => ({ text })) } },
    stopReason: 'end_turn',
    usage: { inputTokens: 420, outputTokens: 80, totalTokens: 500 },
    metrics: { latencyMs: 900 },
  },
});
const answerWith = (...texts: string[]) => {
  server.reply = () => converse(...texts);
  return provider().propose(target, { limit: 10, signal: noAbort() });
};

describe('BedrockConverseProvider', () => {
  it('sends a signed Converse request naming the target, and reads the competitors back', async () => {
    server.reply = () =>
      converse('{"competitors":[{"name":"Trello","domain":"trello.com","type":"Direct","reason":"Kanban boards."},{"name":"Smartsheet","domain":"smartsheet.com","type":"Indirect"}]}');
    const proposals = await provider().propose(target, { limit: 8, signal: noAbort() });

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.method).toBe('POST');
    expect(decodeURIComponent(request!.path)).toBe(`/model/${MODEL_ID}/converse`);
    expect(request!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=x\/\d{8}\/eu-west-1\/bedrock\/aws4_request/);
    const body = JSON.parse(request!.body);
    expect(body.system[0].text).toMatch(/JSON/);
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0].role).toBe('user');
    const prompt: string = body.messages[0].content[0].text;
    expect(prompt).toContain('Asana');
    expect(prompt).toContain('asana.com');
    expect(prompt).toMatch(/up to 8 companies/);
    expect(body.inferenceConfig).toMatchObject({ temperature: 0.2, maxTokens: expect.any(Number) });

    expect(proposals).toEqual([
      { name: 'Trello', domain: 'trello.com', type: 'Direct', reason: 'Kanban boards.' },
      { name: 'Smartsheet', domain: 'smartsheet.com', type: 'Indirect' },
    ]);
  });

  it('reads fenced JSON, and an answer split over several text blocks', async () => {
    expect(await answerWith('```\n{"competitors":[{"name":"Trello","domain":"trello.com"}]}\n```')).toEqual([{ name: 'Trello', domain: 'trello.com' }]);
    expect(await answerWith('{"competitors":[{"name":"Trel', 'lo","domain":"trello.com"}]}')).toEqual([{ name: 'Trello', domain: 'trello.com' }]);
  });

  it('returns [] for answers it cannot use, and drops bad or repeated domains', async () => {
    expect(await answerWith('Asana competes with many tools.')).toEqual([]);
    expect(await answerWith('{"competitors":[{"name":"Trello","domain":"trello.com"')).toEqual([]); // cut off at max_tokens
    expect(await answerWith('{"rivals": {"list": "n/a"}}')).toEqual([]);
    expect(
      await answerWith('[{"name":"Box","domain":"10.0.0.1"},{"name":"Trello","domain":"trello.com"},{"name":"Trello","domain":"TRELLO.COM."},"wrike.com"]'),
    ).toEqual([
      { name: 'Trello', domain: 'trello.com' },
      { name: 'Wrike', domain: 'wrike.com' },
    ]);
    server.reply = () => ({ body: { output: { message: { role: 'assistant', content: [] } }, stopReason: 'content_filtered' } });
    expect(await provider().propose(target, { limit: 5, signal: noAbort() })).toEqual([]);
    server.reply = () => ({ body: '<html>not bedrock</html>' });
    expect(await provider().propose(target, { limit: 5, signal: noAbort() })).toEqual([]);
  });

  it('rejects with a ProviderError carrying the status when Bedrock refuses the call', async () => {
    server.reply = () => ({
      status: 403,
      headers: { 'x-amzn-errortype': 'AccessDeniedException' },
      body: { message: "You don't have access to the model with the specified model ID." },
    });
    const failure = await provider().propose(target, { limit: 5, signal: noAbort() }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ provider: 'llm:bedrock', failure: 'http', status: 403 });
    expect((failure as Error).message).toContain('AccessDeniedException');
  });

  itHonoursCancellation({ name: 'llm:bedrock', provider, server: () => server, target, abortAfterMs: 100, timeoutMs: 200, giveUpWithinMs: 2_500 });
});
