import { AssistantErrorCode } from '@tessera/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type TFakeOpenAi } from '../../../test/fake-openai.js';
import { streamChat, type TChatEndpoint } from './chat-client.js';
import { ASSISTANT_TOOLS } from './tool-definitions.js';

describe('streamChat against an OpenAI-compatible stream', () => {
  let fake: TFakeOpenAi;
  let endpoint: TChatEndpoint;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    endpoint = { baseUrl: fake.url, apiKey: fake.apiKey, model: fake.model };
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it('hands on text deltas as they come and counts the usage tokens', async () => {
    fake.script({ text: 'Two motors ran hot.', chunks: ['Two ', 'motors ', 'ran hot.'], tokens: 42 });
    const seen: string[] = [];
    const turn = await streamChat(endpoint, [{ role: 'user', content: 'hot?' }], [], (t) => seen.push(t));
    expect(seen).toEqual(['Two ', 'motors ', 'ran hot.']);
    expect(turn).toEqual({ text: 'Two motors ran hot.', toolCalls: [], tokens: 42 });
    expect(fake.bodies()[0]).toEqual({
      model: fake.model,
      messages: [{ role: 'user', content: 'hot?' }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('joins tool-call fragments by index and sends the tools list', async () => {
    fake.script({
      toolCalls: [
        { name: 'list_devices', arguments: { q: 'Compressor' } },
        { name: 'latest_values', arguments: { tangram_id: 'AB' } },
      ],
    });
    const turn = await streamChat(endpoint, [{ role: 'user', content: 'x' }], ASSISTANT_TOOLS, () => {});
    expect(turn.toolCalls).toEqual([
      { id: 'call_1_0', type: 'function', function: { name: 'list_devices', arguments: '{"q":"Compressor"}' } },
      { id: 'call_1_1', type: 'function', function: { name: 'latest_values', arguments: '{"tangram_id":"AB"}' } },
    ]);
    expect(fake.bodies()[0].tools).toEqual(ASSISTANT_TOOLS);
  });

  it('refuses a non-2xx answer, a wrong key and an unreachable endpoint as ASSISTANT_UPSTREAM_ERROR', async () => {
    fake.script({ status: 503, body: { error: { message: 'busy' } } });
    await expect(streamChat(endpoint, [], [], () => {})).rejects.toMatchObject({ code: AssistantErrorCode.Upstream, statusCode: 502 });
    await expect(streamChat({ ...endpoint, apiKey: 'wrong' }, [], [], () => {})).rejects.toMatchObject({
      message: expect.stringContaining('401'),
    });
    await expect(streamChat({ ...endpoint, baseUrl: 'http://127.0.0.1:1' }, [], [], () => {})).rejects.toMatchObject({
      code: AssistantErrorCode.Upstream,
    });
  });
});
