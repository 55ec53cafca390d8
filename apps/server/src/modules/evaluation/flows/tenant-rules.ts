/**
 * The flow engine's cache of each tenant's running telemetry and status rules (docs/platform-rules.md "Runs"):
 * compiled once per version with their scope matcher and live effects, and the tenant's engine limits; reused for
 * RULE_CACHE_MS (other replicas' changes arrive by then), dropped at once when this process changes them.
 */
import type { TEngineConfig } from '@tessera/contracts';
import type { Db } from '../../../db/client.js';
import type { TIngestDevice } from '../../ingest/directory.js';
import type { TFlowEffects } from './effects.js';
import { engineConfigOf, loadDeployedRules, type TDeployedRule } from './flow-store.js';
import { scopeMatcher } from './scope.js';

/** How long a tenant's running rules and limits are reused before being read again (other replicas' changes), ms. */
export const RULE_CACHE_MS = 5_000;

/** A running rule as the engine matches triggers against it. */
export type TMatchableRule = TDeployedRule & {
  matches: (device: TIngestDevice, key: string | null) => boolean | Promise<boolean>;
  effects: TFlowEffects;
};

/** A tenant's running triggered rules and limits, as loaded at `loadedAt` (epoch ms). */
export interface TTenantRules {
  loadedAt: number;
  config: TEngineConfig;
  rules: TMatchableRule[];
}

/** The cache (one per engine). */
export class TenantRuleCache {
  private readonly tenants = new Map<number, Promise<TTenantRules>>();

  constructor(
    private readonly db: Db,
    private readonly effectsOf: (rule: TDeployedRule) => TFlowEffects,
  ) {}

  /** Drops `tenantId`'s rules (they changed on this process). */
  drop(tenantId: number): void {
    this.tenants.delete(tenantId);
  }

  /** The tenant's rules, from the cache while fresh. @throws what the database throws (nothing is cached then). */
  get(tenantId: number): Promise<TTenantRules> {
    const cached = this.tenants.get(tenantId);
    const now = Date.now();
    if (cached) {
      return cached.then((t) => {
        if (now - t.loadedAt < RULE_CACHE_MS) return t;
        this.tenants.delete(tenantId);
        return this.get(tenantId);
      });
    }
    const loading = (async () => {
      const [config, rules] = await Promise.all([engineConfigOf(this.db, tenantId), loadDeployedRules(this.db, tenantId, ['running'])]);
      const triggered = rules.filter((r) => r.flow.trigger.kind === 'telemetry' || r.flow.trigger.kind === 'status');
      return {
        loadedAt: now,
        config,
        rules: triggered.map((r) => ({ ...r, matches: scopeMatcher(this.db, tenantId, r.flow.trigger), effects: this.effectsOf(r) })),
      };
    })();
    loading.catch(() => this.tenants.delete(tenantId));
    this.tenants.set(tenantId, loading);
    return loading;
  }
}
