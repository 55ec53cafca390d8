/**
 * A fake OpenAI-compatible chat-completions endpoint for tests (like fake-line.ts): a real local HTTP server
 * (node:http) that records every request (method, path, headers, parsed JSON body) and answers
 * `POST /v1/chat/completions` with `stream: true` as OpenAI does — `chat.completion.chunk` objects on `data:` lines, a
 * usage chunk when `stream_options.include_usage` is set, then `data: [DONE]`. Each call takes the next scripted step:
 * tool calls (their arguments sent in two fragments, as real endpoints split them) or text (in chunks). A call with no
 * step left answers 500, so a test sees any call it did not script. Point the server at it with
 * `ai: { baseUrl: fake.url, model: fake.model, apiKey: fake.apiKey, … }`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received. Header names are lower case. */
export interface TFakeOpenAiRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A scripted answer: tool calls to ask for, or text (split into `chunks`, else into words); `tokens` for `usage`. */
export type TFakeOpenAiStep =
  | { toolCalls: { name: string; arguments: Record<string, unknown> }[]; tokens?: number }
  | { text: string; chunks?: string[]; tokens?: number }
  | { status: number; body: unknown };

/** A running fake. Settings are read at each request, so a test may change them at any time. */
export interface TFakeOpenAi {
  /** The base URL to configure (`…/v1`). */
  url: string;
  model: string;
  apiKey: string;
  requests: TFakeOpenAiRequest[];
  /** Steps not yet answered, first next. */
  steps: TFakeOpenAiStep[];
  /** Waited on after the first text chunk of each text step when set (a test holds the stream open mid-answer). */
  hold: Promise<void> | null;
  /** A pause between chunks, in milliseconds (the e2e test lets the browser see the text grow). */
  chunkDelayMs: number;
  /** Replaces the script with `steps`; call ids (`call_{n}_{i}`: the n-th call of this script, its i-th tool call) restart. */
  script(...steps: TFakeOpenAiStep[]): void;
  /** The bodies of the chat-completions calls, in order. */
  bodies(): TFakeChatBody[];
  stop(): Promise<void>;
}

/** The body of a chat-completions call as the fake parsed it (the fields the server sends). */
export interface TFakeChatBody {
  model: string;
  stream: boolean;
  stream_options?: { include_usage?: boolean };
  messages: {
    role: string;
    content: string | null;
    tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
    tool_call_id?: string;
  }[];
  tools?: { type: string; function: { name: string; description: string; parameters: unknown } }[];
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts the fake on a free loopback port; `model` and `apiKey` are what the server should send. */
export async function startFakeOpenAi(opts: { model?: string; apiKey?: string } = {}): Promise<TFakeOpenAi> {
  let callSeq = 0;
  const fake: TFakeOpenAi = {
    url: '',
    model: opts.model ?? 'fake-model-1',
    apiKey: opts.apiKey ?? 'sk-fake-0123456789',
    requests: [],
    steps: [],
    hold: null,
    chunkDelayMs: 0,
    script(...steps) {
      fake.steps = steps;
      callSeq = 0;
    },
    bodies: () => fake.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as TFakeChatBody),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  async function stream(res: ServerResponse, step: Exclude<TFakeOpenAiStep, { status: number }>, body: TFakeChatBody): Promise<void> {
    callSeq += 1;
    const id = `chatcmpl-fake-${callSeq}`;
    const created = Math.floor(Date.now() / 1000);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    chunk({ role: 'assistant', content: '' });
    if ('toolCalls' in step) {
      step.toolCalls.forEach((call, index) => {
        const args = JSON.stringify(call.arguments);
        const half = Math.floor(args.length / 2);
        chunk({
          tool_calls: [
            { index, id: `call_${callSeq}_${index}`, type: 'function', function: { name: call.name, arguments: args.slice(0, half) } },
          ],
        });
        chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] });
      });
      chunk({}, 'tool_calls');
    } else {
      const parts = step.chunks ?? step.text.split(/(?<= )/);
      for (const [i, part] of parts.entries()) {
        chunk({ content: part });
        if (i === 0 && fake.hold) await fake.hold;
        if (fake.chunkDelayMs) await sleep(fake.chunkDelayMs);
      }
      chunk({}, 'stop');
    }
    if (body.stream_options?.include_usage) {
      const total = step.tokens ?? 100;
      const usage = { prompt_tokens: total - Math.floor(total / 4), completion_tokens: Math.floor(total / 4), total_tokens: total };
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  }

  const server = createServer((req, res) => {
    void readBody(req).then(async (body) => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      const path = (req.url ?? '').split('?')[0];
      fake.requests.push({ method: req.method ?? '', path, headers, body });
      const json = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.method !== 'POST' || path !== '/v1/chat/completions') return json(404, { error: { message: 'not found' } });
      if (headers.authorization !== `Bearer ${fake.apiKey}`) return json(401, { error: { message: 'Incorrect API key provided' } });
      const step = fake.steps.shift();
      if (!step) return json(500, { error: { message: 'no scripted answer left' } });
      if ('status' in step) return json(step.status, step.body);
      await stream(res, step, body as TFakeChatBody);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}
