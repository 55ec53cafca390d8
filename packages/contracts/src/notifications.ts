/**
 * Alert notifications (spec §7 `/notification/v1` "device", `/frontstage-alert/v1`):
 * users' own subscriptions — per device or per project, which alert levels reach them and by which channel — and
 * the delivery state of an alert's mail and LINE messages. Decisions: docs/decisions/notifications.md.
 */
import { z } from 'zod';
import { ALERT_LEVELS, NOTIFY_CHANNELS } from './rules-program.js';

/** The channels a subscription may choose: the rules' notify channels (NOTIFY_CHANNELS, email and line). */
export type TNotifyChannel = (typeof NOTIFY_CHANNELS)[number];
/** What a subscription is about: every device of a project the caller may see, or one device. */
export const SUBSCRIPTION_SCOPES = ['project', 'device'] as const;
export type TSubscriptionScope = (typeof SUBSCRIPTION_SCOPES)[number];

const NOTIFICATION = '/notification/v1';
const ALERT = '/frontstage-alert/v1';

/** Paths of the notification endpoints (server routes, console and tests). */
export const notificationPaths = {
  device: (tangramId: string) => `${NOTIFICATION}/device/${tangramId}`,
  project: (projectId: number) => `${NOTIFICATION}/project/${projectId}`,
  subscriptions: `${NOTIFICATION}/subscriptions`,
  alertDeliveries: (alertId: number) => `${ALERT}/alerts/${alertId}/deliveries`,
} as const;

const uniqueList = <T extends z.ZodType<string>>(item: T) =>
  z.array(item).superRefine((list, ctx) => {
    if (new Set(list).size !== list.length) ctx.addIssue({ code: 'custom', message: 'duplicate entry' });
  });

/**
 * PUT body: the levels that reach the caller and the channels they come by. Empty lists are allowed and mean
 * "nothing" — on a device this mutes it even when the project subscription would notify.
 */
export const ZSubscriptionSettings = z.object({
  levels: uniqueList(z.enum(ALERT_LEVELS)),
  channels: uniqueList(z.enum(NOTIFY_CHANNELS)),
});
export type TSubscriptionSettings = z.infer<typeof ZSubscriptionSettings>;

/** The caller's subscription for one scope. `saved` false: none stored (lists empty). Times epoch ms. */
export const ZSubscription = ZSubscriptionSettings.extend({
  scope: z.enum(SUBSCRIPTION_SCOPES),
  project: z.object({ id: z.number().int(), name: z.string() }),
  /** The device of a device subscription, else null. */
  device: z.object({ tangram_id: z.string(), name: z.string() }).nullable(),
  saved: z.boolean(),
  updated_at: z.number().nullable(),
});
export type TSubscription = z.infer<typeof ZSubscription>;

/**
 * GET /notification/v1/device/{tangramId}: the device subscription, plus the caller's subscription of the device's
 * project (`inherited`), which applies while the device has none saved.
 */
export const ZDeviceSubscription = ZSubscription.extend({ inherited: ZSubscription.nullable() });
export type TDeviceSubscription = z.infer<typeof ZDeviceSubscription>;

/** GET /notification/v1/subscriptions: every subscription the caller saved, projects first. */
export const ZSubscriptionList = z.object({ data: z.array(ZSubscription) });
export type TSubscriptionList = z.infer<typeof ZSubscriptionList>;

/**
 * Delivery states: queued or retrying (`pending`), delivered (`sent`), given up (`failed`), kept without SMTP
 * (`stored`, mail only), held back by the LINE monthly push quota (`quota_exceeded`, LINE only).
 */
export const DELIVERY_STATUSES = ['pending', 'sent', 'failed', 'stored', 'quota_exceeded'] as const;
export type TDeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One delivery of an alert: a mail, or a LINE push. Times epoch ms. */
export const ZAlertDelivery = z.object({
  id: z.number().int(),
  channel: z.enum(NOTIFY_CHANNELS),
  /** The mail address, or the LINE recipient: the linked account's email, or the LINE chat's name. */
  to: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  sent_at: z.number().nullable(),
  created_at: z.number(),
});
export type TAlertDelivery = z.infer<typeof ZAlertDelivery>;

/** GET /frontstage-alert/v1/alerts/{id}/deliveries: every delivery of the alert, newest first. */
export const ZAlertDeliveries = z.object({ data: z.array(ZAlertDelivery) });
export type TAlertDeliveries = z.infer<typeof ZAlertDeliveries>;
