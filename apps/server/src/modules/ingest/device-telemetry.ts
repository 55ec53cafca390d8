/**
 * Telemetry of a device that a relay names by its Tangram ID — a LoRaWAN network server's uplink webhook
 * (modules/lorawan), already authenticated and matched to the device — handed to the one ingest pipeline as a native
 * telemetry message, so it is validated, limited, counted and committed exactly like a publish. The caller also learns
 * whether the message was refused, and why, from the same parser the pipeline runs.
 */
import type { TDeviceTelemetryOutcome } from '../../core/context.js';
import type { DeviceDirectory } from './directory.js';
import type { TIngestWay } from './ingest-counters.js';
import { parseDevicePayload } from './parse.js';
import type { IngestPipeline } from './pipeline.js';

/**
 * Ingests `payload` (a native telemetry message: a JSON array of `{key, ts, vs}` points) of device `tangramId`, which
 * came by `way` at `nowMs`. Resolves once the batch holding it — or its refusal counter — has committed.
 * @throws IngestClosedError when the server is shutting down (nothing was stored; the sender should retry).
 */
export async function ingestDeviceTelemetry(
  deps: { directory: DeviceDirectory; pipeline: IngestPipeline },
  tangramId: string,
  payload: Buffer,
  way: TIngestWay,
  nowMs = Date.now(),
): Promise<TDeviceTelemetryOutcome> {
  const device = await deps.directory.device(tangramId);
  if (!device) return { kind: 'unknown_device' };
  const parsed = parseDevicePayload('telemetry', payload, await deps.directory.projectKeys(device.projectId), nowMs);
  await deps.pipeline.submit(device, 'telemetry', payload, nowMs, way);
  if (!parsed.ok) return { kind: 'refused', reason: parsed.reason, detail: parsed.detail };
  return { kind: 'stored', points: parsed.kind === 'telemetry' ? parsed.points.length : 1 };
}
