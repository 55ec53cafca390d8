/**
 * This browser's Web Push subscription (docs/decisions/device-control.md "Push switch"): registers the console's
 * service worker (/sw.js), asks for the notification permission, and subscribes with the server's VAPID public key.
 * The outcome says why it could not, so the switch can tell the user.
 */

/** Why this browser cannot receive push notifications: no Push API, permission refused, or the push service failed. */
export type TPushFailure = 'unsupported' | 'denied' | 'failed';

/** A subscription to register, or why there is none. */
export type TPushOutcome = { ok: true; subscription: PushSubscriptionJSON } | { ok: false; reason: TPushFailure; detail?: string };

/** The service worker's path (served from the console's root, so it controls every page). */
export const SERVICE_WORKER_URL = '/sw.js';

/** A base64url string as bytes (applicationServerKey wants the raw P-256 point). */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const padded = value.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (value.length % 4)) % 4);
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** Subscribes this browser to pushes signed with `publicKey` (base64url), asking for the permission first. */
export async function subscribeThisBrowser(publicKey: string): Promise<TPushOutcome> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    return { ok: false, reason: 'unsupported' };
  }
  const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  if (permission !== 'granted') return { ok: false, reason: 'denied' };
  try {
    const registration = await navigator.serviceWorker.register(SERVICE_WORKER_URL);
    await navigator.serviceWorker.ready;
    const existing = await registration.pushManager.getSubscription();
    const subscription =
      existing ?? (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(publicKey) }));
    return { ok: true, subscription: subscription.toJSON() };
  } catch (err) {
    return { ok: false, reason: 'failed', detail: err instanceof Error ? err.message : String(err) };
  }
}
