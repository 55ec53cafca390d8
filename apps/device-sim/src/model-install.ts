/**
 * How a simulated device installs the model of one `devices/{id}/model` message (docs/protocol.md "AI models"):
 * `downloading` at 0, a token, the file streamed through SHA-256 with progress reports, then `installed` once its
 * length and hash are the announced ones, or `failed` with a short reason. The states go through an injected
 * `publishState`, so this runs without MQTT.
 */
import { MODEL_FAILURE_REASON_MAX, type TDeviceModelMessage, type TDeviceModelState } from '@tessera/contracts';
import { downloadHashed, ModelDownloadError, requestDeviceToken } from './model-download.js';

/** A `downloading` report is sent only once progress grew by at least this share of the file since the last one. */
export const MODEL_PROGRESS_STEP = 0.1;
/** … and at least this many milliseconds after the last one. */
export const MODEL_PROGRESS_MIN_INTERVAL_MS = 250;

/** Who installs, how it reports, and the faults it injects. */
export interface TModelInstallOptions {
  /** The device's credentials, for the token request's HTTP Basic. */
  tangramId: string;
  secret: string;
  /** Publishes one state on `devices/{id}/model/state`; never called after `signal` aborted. */
  publishState: (state: TDeviceModelState) => void;
  /** Aborting it stops the install silently: no further state is published. */
  signal?: AbortSignal;
  /** Flips the file's first byte before hashing, so the install fails with `sha256 mismatch`. */
  corrupt?: boolean;
  /** Overrides {@link MODEL_PROGRESS_MIN_INTERVAL_MS} (tests). */
  progressMinIntervalMs?: number;
}

/**
 * Downloads, verifies and reports the model of `message`. States published, in order: `downloading` with progress 0;
 * `downloading` with progress (bytes / sizeBytes, 3 decimals) at most every {@link MODEL_PROGRESS_STEP} and
 * {@link MODEL_PROGRESS_MIN_INTERVAL_MS}, never at 1; then `installed` with progress 1, or `failed` with a reason of
 * at most MODEL_FAILURE_REASON_MAX characters: `token refused: HTTP 401`, `download failed: HTTP 404`,
 * `network error: …`, `size mismatch: got N bytes, expected M`, `sha256 mismatch`.
 * @returns the final state published, or null when `signal` aborted (nothing more was published). Never throws.
 */
export async function installModel(message: TDeviceModelMessage, o: TModelInstallOptions): Promise<TDeviceModelState | null> {
  const pair = { deploymentId: message.deploymentId, attempt: message.attempt };
  const publish = (state: TDeviceModelState) => {
    if (!o.signal?.aborted) o.publishState(state);
  };
  const minIntervalMs = o.progressMinIntervalMs ?? MODEL_PROGRESS_MIN_INTERVAL_MS;
  let lastProgress = 0;
  let lastReportAt = Date.now();
  const reportProgress = (bytes: number) => {
    if (bytes >= message.sizeBytes) return;
    const progress = Math.floor((bytes / message.sizeBytes) * 1000) / 1000;
    const now = Date.now();
    if (progress - lastProgress < MODEL_PROGRESS_STEP || now - lastReportAt < minIntervalMs) return;
    lastProgress = progress;
    lastReportAt = now;
    publish({ ...pair, state: 'downloading', progress });
  };

  publish({ ...pair, state: 'downloading', progress: 0 });
  let final: TDeviceModelState;
  try {
    const token = await requestDeviceToken(message.tokenUrl, o.tangramId, o.secret, o.signal);
    const file = await downloadHashed(message.url, {
      token,
      sha256: message.sha256,
      signal: o.signal,
      onBytes: reportProgress,
      corruptFirstByte: o.corrupt,
    });
    if (file.bytes !== message.sizeBytes) {
      final = { ...pair, state: 'failed', reason: `size mismatch: got ${file.bytes} bytes, expected ${message.sizeBytes}` };
    } else if (file.sha256 !== message.sha256) {
      final = { ...pair, state: 'failed', reason: 'sha256 mismatch' };
    } else {
      final = { ...pair, state: 'installed', progress: 1 };
    }
  } catch (err) {
    if (o.signal?.aborted) return null;
    const reason = err instanceof ModelDownloadError ? err.message : `error: ${err instanceof Error ? err.message : String(err)}`;
    final = { ...pair, state: 'failed', reason: reason.replaceAll('\u0000', '').slice(0, MODEL_FAILURE_REASON_MAX) };
  }
  if (o.signal?.aborted) return null;
  publish(final);
  return final;
}
