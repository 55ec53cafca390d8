/**
 * Whether a committed point or status word triggers a rule (docs/platform-rules.md "Triggers"): its device is in
 * the start node's scope (listed devices, devices of listed projects, devices of projects of listed products — the
 * products' projects are read once per cached rule; the other scopes answer at once, without a promise) and, for telemetry, its key is one of the listed keys (none
 * listed: any key).
 */
import type { TFlowTrigger } from '@tessera/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { projects } from '../../../db/schema.js';

/** The device fields a match needs. */
export interface TScopedDevice {
  tangramId: string;
  projectId: number;
}

/** A matcher of `trigger` (telemetry or status; any other kind matches nothing) within tenant `tenantId`. */
export function scopeMatcher(
  db: Db,
  tenantId: number,
  trigger: TFlowTrigger,
): (device: TScopedDevice, key: string | null) => boolean | Promise<boolean> {
  if (trigger.kind !== 'telemetry' && trigger.kind !== 'status') return () => false;
  const keys = trigger.kind === 'telemetry' && trigger.keys.length > 0 ? new Set(trigger.keys) : null;
  const keyOk = (key: string | null) => key === null || keys === null || keys.has(key);
  const scope = trigger.scope;
  if (scope.kind === 'devices') {
    const ids = new Set(scope.tangram_ids.map((t) => t.toUpperCase()));
    return (d, key) => keyOk(key) && ids.has(d.tangramId.toUpperCase());
  }
  if (scope.kind === 'projects') {
    const ids = new Set(scope.ids);
    return (d, key) => keyOk(key) && ids.has(d.projectId);
  }
  let projectIds: Promise<Set<number>> | null = null;
  return async (d, key) => {
    if (!keyOk(key)) return false;
    projectIds ??= db
      .select({ id: projects.id })
      .from(projects)
      .where(and(eq(projects.tenantId, tenantId), inArray(projects.productId, scope.ids)))
      .then((rows) => new Set(rows.map((r) => r.id)));
    return (await projectIds).has(d.projectId);
  };
}
