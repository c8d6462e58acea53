// OpenAiCompatibleProvider against a local fake chat-completions server: the request it sends and how it reads answers.
import { describe, expect, it } from 'vitest';
import { OpenAiCompatibleProvider, ProviderError } from '@rivals/providers';
import { itHonoursCancellation } from './contract.js';
import { noAbort, startFakeServer, target, useFakeServer } from './fake-server.js';

const server = useFakeServer();

const provider = (timeoutMs = 2_000) =>
  new OpenAiCompatibleProvider({ baseUrl: `${server.url}/v1/`, apiKey: 'sk-test', model: 'test-model', timeoutMs });
/** A chat completion whose assistant message is `content`. */
const completion = (content: unknown) => ({
  body: { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] },
});
const answerWith = (content: unknown) => {
  server.reply = () => completion(content);
  return provider().propose(target, { limit: 10, signal: noAbort() });
};

describe('OpenAiCompatibleProvider', () => {
  it('posts a JSON-mode chat completion naming the target, and reads the competitors back', async () => {
    const answer = {
      competitors: [
        { name: 'Trello', domain: 'https://www.Trello.com/pricing', type: 'direct', reason: '  Boards for   team tasks. ' },
        { name: 'Monday.com', domain: 'monday.com', type: 'Direct competitor' },
        { name: 'Notion', domain: 'notion.so', type: 'Adjacent' },
      ],
    };
    server.reply = () => completion(JSON.stringify(answer));
    const proposals = await provider().propose(target, { limit: 10, signal: noAbort() });

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(request!.headers.authorization).toBe('Bearer sk-test');
    expect(request!.headers['content-type']).toBe('application/json');
    const body = JSON.parse(request!.body);
    expect(body).toMatchObject({ model: 'test-model', response_format: { type: 'json_object' } });
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    const prompt: string = body.messages[1].content;
    expect(prompt).toContain('Asana');
    expect(prompt).toContain('asana.com');
    expect(prompt).toContain(target.description);
    expect(prompt).toContain('"competitors"');
    expect(prompt).toMatch(/up to 10 companies/);

    expect(proposals).toEqual([
      { name: 'Trello', domain: 'trello.com', type: 'Direct', reason: 'Boards for team tasks.' },
      { name: 'Monday.com', domain: 'monday.com', type: 'Direct' },
      { name: 'Notion', domain: 'notion.so', type: 'Adjacent' },
    ]);
  });

  it('reads fenced JSON and JSON wrapped in prose', async () => {
    const json = '{"competitors":[{"name":"Trello","domain":"trello.com","type":"Direct"}]}';
    expect(await answerWith('```json\n' + json + '\n```')).toEqual([{ name: 'Trello', domain: 'trello.com', type: 'Direct' }]);
    expect(await answerWith(`Sure! Here you go:\n${json}\nHope this helps.`)).toEqual([{ name: 'Trello', domain: 'trello.com', type: 'Direct' }]);
  });

  it('returns [] for answers it cannot use, without throwing', async () => {
    expect(await answerWith('I cannot help with that.')).toEqual([]);
    expect(await answerWith('{"competitors": "none"')).toEqual([]);
    expect(await answerWith('{"competitors": "none"}')).toEqual([]);
    expect(await answerWith('{"competitors": [1, null, true, {"name": "No Domain"}, {"domain": 42}]}')).toEqual([]);
    expect(await answerWith(null)).toEqual([]); // a refusal carries no content
    server.reply = () => ({ body: '<html>gateway says hi</html>' });
    expect(await provider().propose(target, { limit: 10, signal: noAbort() })).toEqual([]);
    server.reply = () => ({ body: { choices: [] } });
    expect(await provider().propose(target, { limit: 10, signal: noAbort() })).toEqual([]);
  });

  // Which domains an answer may name is parsing.test.ts's table (IPs, internal names, repeats); here, that the provider
  // hands the parser its target and limit.
  it('drops the target itself and keeps to the limit', async () => {
    const answer = {
      competitors: [
        { name: 'Asana again', domain: 'app.asana.com' },
        { name: 'Trello', domain: 'trello.com' },
        { domain: 'clickup.com', type: 'Unknown' },
        { name: 'Wrike', website: 'https://www.wrike.com' },
        { name: 'Basecamp', domain: 'basecamp.com' },
      ],
    };
    server.reply = () => completion(JSON.stringify(answer));
    const proposals = await provider().propose(target, { limit: 3, signal: noAbort() });
    expect(proposals).toEqual([
      { name: 'Trello', domain: 'trello.com' },
      { name: 'Clickup', domain: 'clickup.com' },
      { name: 'Wrike', domain: 'wrike.com' },
    ]);
    expect(JSON.parse(server.requests[0]!.body).messages[1].content).toMatch(/up to 3 companies/);
  });

  it('rejects with a ProviderError carrying the status when the service refuses the call', async () => {
    server.reply = () => ({ status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    const failure = await provider().propose(target, { limit: 5, signal: noAbort() }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ provider: 'llm:openai', failure: 'http', status: 401 });
    expect((failure as Error).message).toContain('Incorrect API key');
  });

  it('rejects with a network ProviderError when nothing listens', async () => {
    const closed = await startFakeServer();
    await closed.close();
    const p = new OpenAiCompatibleProvider({ baseUrl: `${closed.url}/v1`, apiKey: 'k', model: 'm', timeoutMs: 2_000 });
    await expect(p.propose(target, { limit: 5, signal: noAbort() })).rejects.toMatchObject({ name: 'ProviderError', failure: 'network' });
  });

  itHonoursCancellation({ name: 'llm:openai', provider, server: () => server, target, abortAfterMs: 50, timeoutMs: 150, giveUpWithinMs: 2_000 });
});
