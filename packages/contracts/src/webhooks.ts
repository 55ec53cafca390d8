/**
 * Outbound webhooks of a project (docs/decisions/webhooks.md): HTTP POSTs of alert events (opened, cleared) to a URL
 * the vendor gives, signed with HMAC-SHA256 over the timestamp and the body, delivered through the outbox with
 * retries, with a delivery log and a test send.
 */
import { z } from 'zod';
import { ZIdText } from './input.js';
import { zPage } from './pagination.js';

/** The events a webhook can subscribe to. */
export const WEBHOOK_EVENTS = ['alert.opened', 'alert.cleared'] as const;
export type TWebhookEvent = (typeof WEBHOOK_EVENTS)[number] | 'webhook.test';

/** At most this many webhooks per project. */
export const MAX_WEBHOOKS_PER_PROJECT = 10;
/** The longest URL accepted, in characters. */
export const WEBHOOK_URL_MAX = 2000;

/**
 * Headers of every delivery. The signature is `v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`; the timestamp is
 * epoch seconds, so a receiver refuses a delivery older than its tolerance (5 minutes suggested) against replays.
 */
export const WEBHOOK_HEADERS = {
  signature: 'x-tessera-signature',
  timestamp: 'x-tessera-timestamp',
  event: 'x-tessera-event',
  deliveryId: 'x-tessera-delivery',
} as const;

/** What happened to one delivery: waiting or retrying, accepted (2xx), or given up. */
export const WEBHOOK_DELIVERY_STATES = ['pending', 'sent', 'failed'] as const;
export type TWebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

/** Paths of the webhook endpoints of project `projectId`. */
export const webhookPaths = {
  list: (projectId: number) => `/frontstage/v1/projects/${projectId}/webhooks`,
  one: (projectId: number, id: number) => `/frontstage/v1/projects/${projectId}/webhooks/${id}`,
  test: (projectId: number, id: number) => `/frontstage/v1/projects/${projectId}/webhooks/${id}/test`,
  deliveries: (projectId: number, id: number) => `/frontstage/v1/projects/${projectId}/webhooks/${id}/deliveries`,
} as const;

/** An http(s) URL with a host, no credentials in it. */
export const ZWebhookUrl = z
  .string()
  .trim()
  .max(WEBHOOK_URL_MAX)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '' && !u.username && !u.password;
    } catch {
      return false;
    }
  }, 'an http or https URL without a user or password')
  .meta({ examples: ['https://example.com/hooks/tessera'] });

/** POST and PUT webhooks: where, which events, on or off. */
export const ZWebhookInput = z.object({
  url: ZWebhookUrl,
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length),
  enabled: z.boolean().default(true),
});
export type TWebhookInput = z.input<typeof ZWebhookInput>;

/** A webhook as answered; its signing secret only masked (`whsec_…abcd`). */
export const ZWebhook = z.object({
  id: z.number().int(),
  project_id: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  secret_masked: z.string(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type TWebhook = z.infer<typeof ZWebhook>;
export const ZWebhookList = z.object({ data: z.array(ZWebhook) });
export type TWebhookList = z.infer<typeof ZWebhookList>;

/** POST webhooks (and POST …/secret): the webhook with its signing secret in full, shown this once. */
export const ZWebhookWithSecret = ZWebhook.extend({ secret: z.string() });
export type TWebhookWithSecret = z.infer<typeof ZWebhookWithSecret>;

/** `:id/webhooks/:webhookId` paths. */
export const ZWebhookParams = z.object({ id: ZIdText, webhookId: ZIdText });

/** One delivery of the log, newest first: its event, state, tries and the receiver's last answer. */
export const ZWebhookDelivery = z.object({
  id: z.number().int(),
  event: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number().int(),
  response_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  created_at: z.number().int(),
  sent_at: z.number().int().nullable(),
  /** The JSON body sent (or to be sent). */
  payload: z.string(),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;
export const ZWebhookDeliveryPage = zPage(ZWebhookDelivery);
export type TWebhookDeliveryPage = z.infer<typeof ZWebhookDeliveryPage>;

/**
 * The body of an alert event: what happened and when (`occurred_at`, epoch ms: the alert's first sighting for
 * `alert.opened`, its resolution for `alert.cleared`), and the alert with its device and project. `webhook.test` sends
 * `{ event, occurred_at, project }` only.
 */
export interface TWebhookAlertBody {
  event: 'alert.opened' | 'alert.cleared';
  occurred_at: number;
  project: { id: number; name: string };
  device: { tangram_id: string; name: string };
  alert: {
    id: number;
    level: string;
    rule_name: string;
    message: string;
    state: string;
    first_seen_at: number;
    resolved_at: number | null;
    trigger: { key: string; value: number } | null;
  };
}
