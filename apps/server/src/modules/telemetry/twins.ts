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
  const found = await db
    .select({
      id: devices.id,
      tangramId: devices.tangramId,
      statusValue: devices.statusValue,
      statusTs: devices.statusTs,
      groups: projects.statusGroups,
    })
    .from(devices)
    .innerJoin(projects, eq(projects.id, devices.projectId))
    .where(and(inArray(devices.tangramId, ids), visibleDevicesCondition(principal, 'view_telemetry')));
  const latest = found.length
    ? await db
        .select()
        .from(telemetryLatest)
        .where(
          inArray(
            telemetryLatest.deviceId,
            found.map((d) => d.id),
          ),
        )
        .orderBy(asc(telemetryLatest.key))
    : [];
  const byId = new Map(found.map((d) => [d.tangramId, d]));
  return ids.flatMap((tid) => {
    const d = byId.get(tid);
    if (!d) return [];
    const status = presentStatus(d.statusValue, d.statusTs, d.groups);
    return [{ tangramId: d.tangramId, telemetry: latest.filter((l) => l.deviceId === d.id).map(presentLatest), status }];
  });
}
