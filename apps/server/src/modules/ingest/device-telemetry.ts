/**
 * Telemetry of a device that a relay names by its Tangram ID — a LoRaWAN network server's uplink webhook
 * (modules/lorawan), already authenticated and matched to the device — handed to the one ingest pipeline as a native
 * telemetry message, so it is validated, limited, counted and committed exactly like a publish. The caller also learns
 * whether the pipeline refused the message (its parser or the device's rate limit), and why.
 */
import type { TDeviceTelemetryOutcome } from '../../core/context.js';
import type { DeviceDirectory, TIngestDevice } from './directory.js';
import type { TIngestWay } from './ingest-counters.js';
import type { TFiledReport } from './batch.js';
import type { IngestPipeline } from './pipeline.js';

/** What the pipeline made of one message (see {@link TFiledReport}). */
export type TFiledOutcome = Parameters<TFiledReport>[0];

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
  return submitReporting(deps.pipeline, device, payload, nowMs, way);
}

/**
 * Hands a native telemetry message of `device` to `pipeline` and answers what the pipeline made of it — stored (its
 * points) or refused (the parser's or the rate limit's reason) — once the batch holding it, or its refusal counter, has
 * committed.
 * @throws IngestClosedError when the server is shutting down (nothing was stored; the sender should retry).
 */
export async function submitReporting(
  pipeline: IngestPipeline,
  device: TIngestDevice,
  payload: Buffer,
  nowMs: number,
  way: TIngestWay,
): Promise<TFiledOutcome> {
  let outcome: TFiledOutcome = { kind: 'refused', reason: 'malformed', detail: 'not filed' };
  await pipeline.submit(device, 'telemetry', payload, nowMs, way, (filed) => {
    outcome = filed;
  });
  return outcome;
}
