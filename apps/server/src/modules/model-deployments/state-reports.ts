/**
 * A device's reports on `devices/{id}/model/state` (docs/protocol.md "AI models", ZDeviceModelState): each moves the
 * device's deployment — its own, of the attempt it names, not yet final — to `downloading` (progress only grows),
 * `installed` or `failed` with its reason. A report of another device's deployment, of an older attempt, or after the
 * final state changes nothing; an unreadable report is logged (throttled per device) and acknowledged.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { ZDeviceModelState } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { aiModelDeployments } from '../../db/schema.js';
import type { TDeviceReportListener } from '../ingest/device-reports.js';
import { ThrottledLog } from '../ingest/throttled-log.js';

/** The listener of model-state reports; its `refused` counts the unreadable ones since start. */
export function modelStateListener(db: Db, log: Logger): TDeviceReportListener & { refused: () => number } {
  const warn = new ThrottledLog(log);
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
