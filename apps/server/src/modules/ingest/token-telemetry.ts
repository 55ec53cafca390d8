/**
 * Telemetry of a device that names itself by its access token outside MQTT (ThingsBoard's HTTP device API,
 * docs/protocol.md "ThingsBoard device API (HTTP)"): rewritten into the native message and handed to the one ingest
 * pipeline, so it is validated, limited, counted and acknowledged (after its batch commits) exactly like a publish.
 * The caller also learns whether the pipeline refused the message (its parser or the device's rate limit), and why.
 */
import type { TTokenTelemetryOutcome } from '../../core/context.js';
import { sha256 } from '../../core/crypto.js';
import type { DeviceDirectory } from './directory.js';
import { submitReporting } from './device-telemetry.js';
import type { IngestPipeline } from './pipeline.js';
import { thingsboardTelemetryToNative } from './thingsboard-telemetry.js';

export type { TTokenTelemetryOutcome } from '../../core/context.js';

/**
 * Ingests `payload` (ThingsBoard's telemetry JSON) of the device whose access token is `token`, received at
 * `nowMs`. Resolves once the batch holding it — or its refusal counter — has committed.
 * @throws IngestClosedError when the server is shutting down (nothing was stored; the device should retry).
 */
export async function ingestTokenTelemetry(
  deps: { directory: DeviceDirectory; pipeline: IngestPipeline },
  token: string,
  payload: Buffer,
  nowMs = Date.now(),
): Promise<TTokenTelemetryOutcome> {
  const device = await deps.directory.deviceByTokenHash(sha256(token));
  if (!device) return { kind: 'unknown_token' };
  return submitReporting(deps.pipeline, device, thingsboardTelemetryToNative(payload, nowMs), nowMs, 'http');
}
