/**
 * The MQTT topics of devices and of the console's live channel (ARCHITECTURE.md "Device protocol", docs/protocol.md).
 * In a module of its own, without zod: the console's live channel builds its topics without loading classic zod.
 * protocol.ts re-exports it.
 */

/** Topic builders, one place for every topic string. */
export const topics = {
  telemetry: (id: string) => `devices/${id}/telemetry`,
  status: (id: string) => `devices/${id}/status`,
  command: (id: string, reqId: string) => `devices/${id}/commands/${reqId}`,
  commandReply: (id: string, reqId: string) => `devices/${id}/commands/${reqId}/reply`,
  config: (id: string) => `devices/${id}/config`,
  /** Retained: the AI model revision the device should hold (ZDeviceModelMessage; empty: none). */
  model: (id: string) => `devices/${id}/model`,
  /** The device's download and install state of its model (ZDeviceModelState). */
  modelState: (id: string) => `devices/${id}/model/state`,
  live: (id: string) => `live/devices/${id}`,
  /** The alerts an account may see, as they open, change and resolve (ZLiveAlertMessage). */
  liveAlerts: (accountId: number) => `live/accounts/${accountId}/alerts`,
  /** An authorisation request of the account was answered or revoked (ZLiveAccessMessage); the console refetches. */
  liveAccess: (accountId: number) => `live/accounts/${accountId}/access`,
  /** A platform telemetry's new latest values (ZLivePlatformTelemetry), for vendors of its tenant. */
  livePlatformTelemetry: (id: number) => `live/platform-telemetry/${id}`,
} as const;

/** The reserved live key carrying a status word. */
export const STATUS_LIVE_KEY = '$status';
