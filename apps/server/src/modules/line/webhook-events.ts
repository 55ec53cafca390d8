/**
 * The webhook body LINE posts (https://developers.line.biz/en/reference/messaging-api/#webhook-event-objects), the
 * parts Tessera reads. Other event types and fields pass through untouched and are ignored.
 */
import { z } from 'zod';

/** Where an event happened: a 1:1 chat with a user, a group chat or a multi-person chat (room). */
export const ZLineSource = z.object({
  type: z.enum(['user', 'group', 'room']),
  userId: z.string().optional(),
  groupId: z.string().optional(),
  roomId: z.string().optional(),
});
export type TLineSource = z.infer<typeof ZLineSource>;

/** One webhook event. `webhookEventId` is stable across redeliveries. */
export const ZLineEvent = z.object({
  type: z.string(),
  webhookEventId: z.string().min(1),
  timestamp: z.number(),
  mode: z.string().optional(),
  deliveryContext: z.object({ isRedelivery: z.boolean() }).optional(),
  source: ZLineSource.optional(),
  replyToken: z.string().optional(),
  message: z.object({ type: z.string(), text: z.string().optional() }).optional(),
  link: z.object({ result: z.enum(['ok', 'failed']), nonce: z.string() }).optional(),
});
export type TLineEvent = z.infer<typeof ZLineEvent>;

/** The body of a webhook call (LINE's "Verify" button sends one with no events). */
export const ZLineWebhookBody = z.object({ destination: z.string().optional(), events: z.array(ZLineEvent) });
export type TLineWebhookBody = z.infer<typeof ZLineWebhookBody>;

/** The LINE ID of the chat an event came from (group, room or user), or null. */
export function chatIdOf(source: TLineSource | undefined): string | null {
  if (!source) return null;
  return (source.type === 'group' ? source.groupId : source.type === 'room' ? source.roomId : source.userId) ?? null;
}
