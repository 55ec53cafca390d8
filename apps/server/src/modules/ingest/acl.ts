/**
 * Topic access rules of the device protocol (ARCHITECTURE.md "Device protocol", docs/protocol.md "Topics").
 * Pure functions: who may publish and subscribe where. The broker hooks in auth.ts call them.
 */
import { ID_MAX, parseDeviceTopic } from '@tessera/contracts';

/** What a device topic is, for the ingest and ACL code. */
export type TDeviceTopicKind = 'telemetry' | 'status' | 'reply' | 'model_state' | 'other';

/** Classifies a topic published under `devices/{tangramId}/`; null when not a device topic. */
export function classifyDeviceTopic(topic: string): { tangramId: string; kind: TDeviceTopicKind } | null {
  const parsed = parseDeviceTopic(topic);
  if (!parsed) return null;
  const { tangramId, rest } = parsed;
  if (rest.length === 1 && rest[0] === 'telemetry') return { tangramId, kind: 'telemetry' };
  if (rest.length === 1 && rest[0] === 'status') return { tangramId, kind: 'status' };
  if (rest.length === 2 && rest[0] === 'model' && rest[1] === 'state') return { tangramId, kind: 'model_state' };
  if (rest.length === 3 && rest[0] === 'commands' && isPlainLevel(rest[1]) && rest[2] === 'reply') return { tangramId, kind: 'reply' };
  return { tangramId, kind: 'other' };
}

/** A device may publish only its own telemetry, status, command replies and model state. */
export function canDevicePublish(tangramId: string, topic: string): boolean {
  const t = classifyDeviceTopic(topic);
  return t !== null && t.tangramId === tangramId && t.kind !== 'other';
}

/**
 * A device may subscribe only to its own commands (`devices/{id}/commands/+` or one request id), its retained config
 * (`devices/{id}/config`) and its retained model (`devices/{id}/model`). `#` and any other wildcard are refused.
 */
export function canDeviceSubscribe(tangramId: string, filter: string): boolean {
  const parts = filter.split('/');
  if (parts[0] !== 'devices' || parts[1] !== tangramId) return false;
  if (parts.length === 3) return parts[2] === 'config' || parts[2] === 'model';
  if (parts.length === 4 && parts[2] === 'commands') return parts[3] === '+' || isPlainLevel(parts[3]);
  return false;
}

/** The device a browser asks to watch: `live/devices/{id}` without wildcards, else null. */
export function liveTopicDevice(filter: string): string | null {
  const parts = filter.split('/');
  if (parts.length !== 3 || parts[0] !== 'live' || parts[1] !== 'devices' || !isPlainLevel(parts[2])) return null;
  return parts[2];
}

/** The channels under `live/accounts/{accountId}/`: its alerts, and changes to what it may see. */
const ACCOUNT_CHANNELS = ['alerts', 'access'];

/**
 * The account a browser asks to follow: `live/accounts/{accountId}/alerts` (docs/decisions/alerts.md) or
 * `…/access` (docs/decisions/authorisation.md), without wildcards (a positive decimal id, no leading zero), else
 * null. auth.ts grants it only to that account.
 */
export function liveAccountOf(filter: string): number | null {
  const parts = filter.split('/');
  if (parts.length !== 4 || parts[0] !== 'live' || parts[1] !== 'accounts' || !ACCOUNT_CHANNELS.includes(parts[3])) return null;
  return /^[1-9][0-9]{0,9}$/.test(parts[2]) && Number(parts[2]) <= ID_MAX ? Number(parts[2]) : null;
}

/**
 * The platform telemetry a browser asks to watch: `live/platform-telemetry/{id}` without wildcards (a positive decimal
 * id), else null. auth.ts grants it to vendors of its tenant with the section (docs/platform-telemetry.md).
 */
export function livePlatformTelemetryId(filter: string): number | null {
  const parts = filter.split('/');
  if (parts.length !== 3 || parts[0] !== 'live' || parts[1] !== 'platform-telemetry') return null;
  return /^[1-9][0-9]{0,9}$/.test(parts[2]) && Number(parts[2]) <= ID_MAX ? Number(parts[2]) : null;
}

function isPlainLevel(level: string | undefined): level is string {
  return !!level && !level.includes('+') && !level.includes('#');
}
