/**
 * Web Push to the console (docs/decisions/device-control.md "Push switch"): the device's push switch
 * (`configFCMStatus`) chooses which devices' alerts reach the account's browsers; each browser registers a push
 * subscription (RFC 8030) made with the server's VAPID public key (RFC 8292); the server sends each alert encrypted
 * for it (RFC 8291, aes128gcm).
 */
import { z } from 'zod';

const NOTIFICATION = '/notification/v1';

/** Paths of the Web Push endpoints. */
export const webPushPaths = {
  /** GET: the server's VAPID public key. */
  key: `${NOTIFICATION}/web-push/key`,
  /** POST: register this browser's subscription; DELETE (body `{ endpoint }`): forget it. */
  subscriptions: `${NOTIFICATION}/web-push/subscriptions`,
} as const;

/** What happened to one push message: waiting or retrying, accepted by the push service, given up, or the browser is gone. */
export const WEB_PUSH_STATES = ['pending', 'sent', 'failed', 'gone'] as const;
export type TWebPushState = (typeof WEB_PUSH_STATES)[number];

/**
 * The push services a browser subscription may point at by default: Chrome/Edge (FCM), Firefox (Mozilla autopush),
 * Edge on Windows (WNS) and Safari (Apple); `https://*.domain` matches any subdomain (server WEB_PUSH_ORIGINS).
 */
export const DEFAULT_WEB_PUSH_ORIGINS = [
  'https://fcm.googleapis.com',
  'https://updates.push.services.mozilla.com',
  'https://*.notify.windows.com',
  'https://*.push.apple.com',
] as const;

/** How long a push service keeps an undelivered message for an offline browser, in seconds (the `TTL` header). */
export const WEB_PUSH_TTL_S = 24 * 3600;

/** GET web-push/key: the VAPID public key (uncompressed P-256 point, base64url) to subscribe with. */
export const ZWebPushKey = z.object({ public_key: z.string() });
export type TWebPushKey = z.infer<typeof ZWebPushKey>;

const base64url = (max: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'base64url')
    .max(max);

/** POST web-push/subscriptions: a `PushSubscription.toJSON()` (endpoint and keys). */
export const ZWebPushSubscription = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2048),
  keys: z.object({ p256dh: base64url(128), auth: base64url(64) }),
});
export type TWebPushSubscription = z.infer<typeof ZWebPushSubscription>;

/** DELETE web-push/subscriptions: which endpoint to forget. */
export const ZWebPushUnsubscribe = z.object({ endpoint: z.string().max(2048) });

/** The answer to a registration. */
export const ZWebPushRegistered = z.object({ id: z.number().int() });

/** What the service worker shows: a title, a body, the console page a click opens, and a tag (one per alert). */
export const ZWebPushPayload = z.object({ title: z.string(), body: z.string(), url: z.string(), tag: z.string() });
export type TWebPushPayload = z.infer<typeof ZWebPushPayload>;
