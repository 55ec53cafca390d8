/**
 * The assistant routes under `/frontstage-ai/v1` (spec §1 AI assistant, feature code 13:25; docs/decisions/ai.md
 * "Assistant"): status, conversations (list, create, read, delete) and a question answered as Server-Sent Events
 * (`event:`/`data:` lines, as the QR login stream in auth/qr-login-routes.ts). Everything before the stream opens —
 * login, 13:25, configured, the caller's conversation, the daily limits — answers as an ordinary JSON error.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import {
  ZAssistantConversation,
  ZAssistantConversationDetail,
  ZAssistantConversationInput,
  ZAssistantConversationList,
  ZAssistantConversationParams,
  ZAssistantMessageInput,
  ZAssistantStatus,
  ZListQuery,
  type TAssistantStreamEvent,
} from '@tessera/contracts';
import { z } from 'zod';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf } from '../../core/principal.js';
import { answerQuestion, endpointOf } from './answer.js';
import { createConversation, deleteConversation, getConversation, listConversations, ownConversation } from './conversations.js';
import { requireAssistant } from './feature.js';
import { assistantStatus, takeRequest } from './limits.js';

const tags = ['assistant'];
const gate = { preHandler: requireAssistant };

function send(raw: ServerResponse, { event, data }: TAssistantStreamEvent): void {
  if (!raw.writableEnded) raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** Registers the assistant routes (prefix `/frontstage-ai/v1`). */
export async function assistantRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db, config, log } = ctx;
  const open = new Set<ServerResponse>();
  app.addHook('onClose', async () => {
    for (const raw of open) raw.end();
  });

  app.get('/assistant/status', { ...gate, schema: { tags, response: { 200: ZAssistantStatus } } }, (req) =>
    assistantStatus(db, config, principalOf(req).tenantId, Date.now()),
  );
  app.get(
    '/assistant/conversations',
    { ...gate, schema: { tags, querystring: ZListQuery, response: { 200: ZAssistantConversationList } } },
    (req) => listConversations(db, principalOf(req), req.query),
  );
  app.post(
    '/assistant/conversations',
    { ...gate, schema: { tags, body: ZAssistantConversationInput, response: { 201: ZAssistantConversation } } },
    async (req, reply) => reply.status(201).send(await createConversation(db, principalOf(req), req.body.title)),
  );
  app.get(
    '/assistant/conversations/:id',
    { ...gate, schema: { tags, params: ZAssistantConversationParams, response: { 200: ZAssistantConversationDetail } } },
    (req) => getConversation(db, principalOf(req), req.params.id),
  );
  app.delete(
    '/assistant/conversations/:id',
    { ...gate, schema: { tags, params: ZAssistantConversationParams, response: { 204: z.null().describe('no content') } } },
    async (req, reply) => {
      await deleteConversation(db, principalOf(req), req.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/assistant/conversations/:id/messages',
    {
      ...gate,
      schema: {
        tags,
        params: ZAssistantConversationParams,
        body: ZAssistantMessageInput,
        response: {
          200: {
            description: 'the answer as it is written',
            content: {
              'text/event-stream': {
                schema: z
                  .string()
                  .describe(
                    'Server-Sent Events: tool {name, summary, references}, action {tangram_id, device_name, command, params}, delta {text}; then done {message_id, tokens} or error {code, message}.',
                  ),
              },
            },
          },
        },
      },
    },
    async (req, reply) => {
      const principal = principalOf(req);
      endpointOf(config);
      const conversation = await ownConversation(db, principal, req.params.id);
      await takeRequest(db, config, principal.tenantId, Date.now());
      reply.hijack();
      const raw = reply.raw;
      // A hijacked reply sends only what is written here: the headers set so far (security headers, request id) too.
      raw.writeHead(200, {
        ...(reply.getHeaders() as OutgoingHttpHeaders),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      open.add(raw);
      const gone = new AbortController();
      raw.on('close', () => {
        open.delete(raw);
        if (!raw.writableFinished) gone.abort();
      });
      try {
        await answerQuestion(ctx, principal, conversation, req.body, (event) => send(raw, event), gone.signal);
      } catch (err) {
        log.error({ err }, 'assistant answer failed');
        send(raw, { event: 'error', data: { code: 'INTERNAL', message: 'the answer failed' } });
      } finally {
        raw.end();
      }
    },
  );
}
