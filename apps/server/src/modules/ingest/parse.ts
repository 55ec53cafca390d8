/**
 * Parses one device publish (docs/protocol.md "Telemetry", "Status") into points or a refusal. A message is
 * accepted or refused whole: one bad point, or one key the project does not know, refuses all of it.
 */
import { MAX_POINTS_PER_MESSAGE, ZStatusMessage, ZTelemetryMessage, type TStatusMessage, type TTelemetryPoint } from '@tessera/contracts';
import type { TRejectedIn } from '../telemetry/write.js';

/** Why a message was refused (the `reason` of device_ingest_stats). */
export type TRejectReason = TRejectedIn['reason'];

/** The outcome of parsing one publish. `count` is how many points were refused (1 for an unreadable message). */
export type TParsedMessage =
  | { ok: true; kind: 'telemetry'; points: TTelemetryPoint[] }
  | { ok: true; kind: 'status'; status: TStatusMessage }
  | { ok: false; reason: TRejectReason; count: number; detail: string };

/**
 * Parses `payload` (UTF-8 JSON) published on a telemetry or status topic.
 * @param knownKeys the telemetry keys of the device's project (project_sensors); others are `unknown_key`.
 */
export function parseDevicePayload(kind: 'telemetry' | 'status', payload: Buffer, knownKeys: ReadonlySet<string>): TParsedMessage {
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed', count: 1, detail: 'payload is not JSON' };
  }
  if (kind === 'status') {
    const status = ZStatusMessage.safeParse(json);
    if (!status.success) return { ok: false, reason: 'malformed', count: 1, detail: firstIssue(status.error.issues) };
    return { ok: true, kind: 'status', status: status.data };
  }
  if (Array.isArray(json) && json.length > MAX_POINTS_PER_MESSAGE) {
    return { ok: false, reason: 'too_many_points', count: json.length, detail: `more than ${MAX_POINTS_PER_MESSAGE} points` };
  }
  const parsed = ZTelemetryMessage.safeParse(json);
  if (!parsed.success) {
    const count = Array.isArray(json) ? Math.max(json.length, 1) : 1;
    return { ok: false, reason: 'malformed', count, detail: firstIssue(parsed.error.issues) };
  }
  const points = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
  const unknown = points.find((p) => !knownKeys.has(p.key));
  if (unknown) return { ok: false, reason: 'unknown_key', count: points.length, detail: `unknown key ${unknown.key}` };
  return { ok: true, kind: 'telemetry', points };
}

function firstIssue(issues: { path: PropertyKey[]; message: string }[]): string {
  const issue = issues[0];
  return issue ? `${issue.path.map(String).join('.') || 'payload'}: ${issue.message}` : 'invalid payload';
}
