/**
 * Matching a committed batch to platform-rule runs (docs/platform-rules.md "Runs and the trace"): each telemetry point and status
 * word of the batch against its tenant's running telemetry and status rules (tenant-rules.ts). Everything a match
 * needs is cached — the tenant's rules, their scope matchers, each project's product — so a batch is matched in one
 * pass without waiting, and all its runs are offered together: started in the same tick, their alerts join one
 * upsert statement (alert-refresher.ts). Only a cache miss waits for the database.
 */
import type { TEngineConfig } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { TCommittedRows } from '../../ingest/pipeline.js';
import type { TIngestDevice } from '../../ingest/directory.js';
import type { TFlowDevice } from './effects.js';
import { deviceFields, type TFlowTriggerValues } from './run-flow.js';
import type { TMatchableRule, TenantRuleCache } from './tenant-rules.js';

/** A point or status word of a committed batch, and the device it came from. */
interface TBatchEvent {
  device: TIngestDevice;
  /** The telemetry key; null for a status word. */
  key: string | null;
  trigger: Omit<TFlowTriggerValues, 'device'>;
}

/** What the matcher needs: the tenants' rules, a device's full record on a product miss, and where runs go. */
export interface TBatchMatcherDeps {
  tenants: TenantRuleCache;
  log: Logger;
  /** The device as a run sees it (with its product), read through the rule's effects; null when gone. */
  lookUp: (rule: TMatchableRule, tangramId: string) => Promise<TFlowDevice | null>;
  /** Takes one matched run under its tenant's limits. */
  offer: (config: TEngineConfig, rule: TMatchableRule, trigger: TFlowTriggerValues) => void;
}

/** Groups a committed batch's points and status words by tenant, in batch order (telemetry, then status). */
export function eventsByTenant(batch: TCommittedRows): Map<number, TBatchEvent[]> {
  const byTenant = new Map<number, TBatchEvent[]>();
  const add = (deviceId: number, key: string | null, trigger: TBatchEvent['trigger']) => {
    const device = batch.devices.get(deviceId);
    if (!device) return;
    const list = byTenant.get(device.tenantId) ?? [];
    if (list.length === 0) byTenant.set(device.tenantId, list);
    list.push({ device, key, trigger });
  };
  for (const row of batch.telemetry) {
    if (row.value !== undefined) add(row.deviceId, row.key, { key: row.key, ts: row.ts, value: row.value });
    else
      add(row.deviceId, row.key, { key: row.key, ts: row.ts, values: [row.v1 ?? Number.NaN, row.v2 ?? Number.NaN, row.v3 ?? Number.NaN] });
  }
  for (const row of batch.status) add(row.deviceId, null, { ts: row.ts, status: row.value });
  return byTenant;
}

/** Matches committed batches to runs (one per engine; it keeps each project's product). */
export class BatchMatcher {
  /** Project id → product id: a project's product never changes, so it is read once per project. */
  private readonly productOfProject = new Map<number, number>();

  constructor(private readonly deps: TBatchMatcherDeps) {}

  /** Matches `events` of `tenantId` and offers each run. Never throws: a failure is logged and the rest dropped. */
  async match(tenantId: number, events: readonly TBatchEvent[]): Promise<void> {
    try {
      const tenant = await this.deps.tenants.get(tenantId);
      if (tenant.rules.length === 0) return;
      for (const ev of events) {
        for (const rule of tenant.rules) {
          if ((rule.flow.trigger.kind === 'telemetry') !== (ev.key !== null)) continue;
          const match = rule.matches(ev.device, ev.key);
          if (!(typeof match === 'boolean' ? match : await match)) continue;
          const productId = this.productOfProject.get(ev.device.projectId);
          const device = productId === undefined ? await this.lookUpProduct(rule, ev.device) : { ...deviceFields(ev.device), productId };
          if (device) this.deps.offer(tenant.config, rule, { ...ev.trigger, device });
        }
      }
    } catch (err) {
      this.deps.log.warn({ err, tenantId }, 'platform rules: a batch could not be matched');
    }
  }

  private async lookUpProduct(rule: TMatchableRule, d: TIngestDevice): Promise<TFlowDevice | null> {
    const full = await this.deps.lookUp(rule, d.tangramId);
    if (!full) return null;
    this.productOfProject.set(d.projectId, full.productId);
    return { ...deviceFields(d), productId: full.productId };
  }
}
