/**
 * Device twins (spec §7 `deviceTwins?tangramIds=A,B`): latest values and the status word decoded with the
 * project's status groups (§4: 40 bits, slices counted from the right), for each listed device the caller may
 * see. Invisible, unknown and malformed IDs are left out, so other tenants' IDs cannot be probed.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { isTangramId, type TDeviceTwin } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { badRequest } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { devices, projects, telemetryLatest } from '../../db/schema.js';
import { visibleDevicesCondition } from '../devices/access.js';
import { presentLatest, presentStatus } from './presenters.js';

/** At most this many IDs per request. */
export const MAX_TWIN_IDS = 200;

/**
 * Twins of the visible devices among the comma-separated `tangramIds`, in the order asked.
 * @throws AppError 400 when more than MAX_TWIN_IDS IDs are listed.
 */
export async function getDeviceTwins(db: Db, principal: TPrincipal, tangramIds: string): Promise<TDeviceTwin[]> {
  const ids = [...new Set(tangramIds.split(',').map((s) => s.trim().toUpperCase()))].filter(isTangramId);
  if (ids.length > MAX_TWIN_IDS) throw badRequest(`at most ${MAX_TWIN_IDS} tangramIds per request`);
  if (ids.length === 0) return [];
  // Devices and their latest values in one query (a dashboard asks for twins many times at once); a device without
  // any latest value is one row whose latest columns are null.
  const rows = await db
    .select({
      id: devices.id,
      tangramId: devices.tangramId,
      statusValue: devices.statusValue,
      statusTs: devices.statusTs,
      groups: projects.statusGroups,
      latest: telemetryLatest,
    })
    .from(devices)
    .innerJoin(projects, eq(projects.id, devices.projectId))
    .leftJoin(telemetryLatest, eq(telemetryLatest.deviceId, devices.id))
    .where(and(inArray(devices.tangramId, ids), visibleDevicesCondition(principal, 'view_telemetry')))
    .orderBy(asc(telemetryLatest.key));
  const byId = new Map<string, TDeviceTwin>();
  for (const r of rows) {
    let twin = byId.get(r.tangramId);
    if (!twin) {
      twin = { tangramId: r.tangramId, telemetry: [], status: presentStatus(r.statusValue, r.statusTs, r.groups) };
      byId.set(r.tangramId, twin);
    }
    if (r.latest) twin.telemetry.push(presentLatest(r.latest));
  }
  return ids.flatMap((tid) => byId.get(tid) ?? []);
}
