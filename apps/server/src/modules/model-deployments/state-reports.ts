/**
 * A device's reports on `devices/{id}/model/state` (docs/protocol.md "AI models", ZDeviceModelState): each moves the
 * device's deployment — its own, of the attempt it names, not yet final — to `downloading` (progress only grows),
 * `installed` or `failed` with its reason. A report of another device's deployment, of an older attempt, or after the
 * final state changes nothing; an unreadable report is logged (throttled per device) and acknowledged. Progress
 * reports beyond PROGRESS_REPORTS_PER_S per device (bursts of PROGRESS_REPORTS_BURST) are acknowledged and not
 * written, so a device cannot turn its reports into a stream of database writes; final states are always written.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { ZDeviceModelState } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { aiModelDeployments } from '../../db/schema.js';
import type { TDeviceReportListener } from '../ingest/device-reports.js';
import { ThrottledLog } from '../../core/throttled-log.js';
import { TokenBucket } from '../ingest/token-bucket.js';

/** Progress reports a device may have written per second, sustained (the simulator sends at most 4). */
export const PROGRESS_REPORTS_PER_S = 5;
/** Progress reports a device may have written in a burst. */
export const PROGRESS_REPORTS_BURST = 20;
/** Devices whose progress allowance is remembered; past this the memory starts over (everyone gets a full burst). */
const PROGRESS_GATE_DEVICES_MAX = 100_000;

/** Per-device allowances of progress reports: a token bucket on the server's clock. */
export class ProgressGate {
  private readonly buckets = new Map<number, TokenBucket>();

  /** True when device `deviceId` may have one more progress report written at `nowMs`. */
  admit(deviceId: number, nowMs = Date.now()): boolean {
    let bucket = this.buckets.get(deviceId);
    if (!bucket) {
      if (this.buckets.size >= PROGRESS_GATE_DEVICES_MAX) this.buckets.clear();
      bucket = new TokenBucket(PROGRESS_REPORTS_PER_S, PROGRESS_REPORTS_BURST, nowMs);
      this.buckets.set(deviceId, bucket);
    }
    return bucket.take(1, nowMs, nowMs);
  }
}

/** The listener of model-state reports; `refused` counts the unreadable and the over-rate ones since start. */
export function modelStateListener(db: Db, log: Logger): TDeviceReportListener & { refused: () => number } {
  const warn = new ThrottledLog(log);
  const gate = new ProgressGate();
  let refused = 0;
  const listener = async (device: { id: number; tangramId: string }, payload: Buffer) => {
    let json: unknown = null;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      // Stays null: refused below.
    }
    const report = ZDeviceModelState.safeParse(json);
    if (!report.success) {
      refused += 1;
      warn.warn(`${device.tangramId}:model_state`, { tangramId: device.tangramId }, 'model state report refused: not the documented JSON');
      return;
    }
    const r = report.data;
    if (r.state === 'downloading' && !gate.admit(device.id)) {
      refused += 1;
      warn.warn(`${device.tangramId}:model_progress`, { tangramId: device.tangramId }, 'model progress reports over the rate: not written');
      return;
    }
    const set =
      r.state === 'downloading'
        ? { state: r.state, progress: sql`greatest(${aiModelDeployments.progress}, ${r.progress ?? 0})` }
        : r.state === 'installed'
          ? { state: r.state, progress: 1, reason: null }
          : { state: r.state, reason: r.reason?.trim() || 'failed without a reason' };
    await db
      .update(aiModelDeployments)
      .set({ ...set, updatedAt: Date.now() })
      .where(
        and(
          eq(aiModelDeployments.id, r.deploymentId),
          eq(aiModelDeployments.deviceId, device.id),
          eq(aiModelDeployments.attempt, r.attempt),
          inArray(aiModelDeployments.state, ['pending', 'downloading']),
        ),
      );
  };
  return Object.assign(listener, { refused: () => refused });
}
