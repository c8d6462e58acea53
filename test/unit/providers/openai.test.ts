// OpenAiCompatibleProvider against a local fake chat-completions server: the request it sends and how it reads answers.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAiCompatibleProvider, ProviderError } from '../../../packages/providers/src/index.js';
import { noAbort, startFakeServer, target, type FakeServer } from './fake-server.js';

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

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

  it('drops IP addresses, internal names, the target itself and repeats, and keeps to the limit', async () => {
    const answer = {
      competitors: [
        { name: 'Local', domain: '192.168.0.10' },
        { name: 'Loopback', domain: 'http://127.0.0.1:8080' },
        { name: 'Intranet', domain: 'tasks.internal' },
        { name: 'Localhost', domain: 'localhost' },
        { name: 'Asana again', domain: 'app.asana.com' },
        { name: 'Trello', domain: 'trello.com' },
        { name: 'Trello (dupe)', domain: 'www.trello.com' },
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

  it('rejects at once, without calling, when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(provider().propose(target, { limit: 5, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(0);
  });

  it('rejects with the abort reason when the caller aborts mid-call', async () => {
    server.reply = () => ({ hang: true });
    const controller = new AbortController();
    const call = provider().propose(target, { limit: 5, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('search cancelled')), 50);
    await expect(call).rejects.toThrow('search cancelled');
  });

  it('gives up on a slow server after its own timeout', async () => {
    server.reply = () => ({ hang: true });
    const started = Date.now();
    const failure = await provider(150).propose(target, { limit: 5, signal: noAbort() }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ failure: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
