/**
 * The engine's copy of each project's compiled rules (rule-set.ts), kept RULE_CACHE_TTL_MS and dropped at once when
 * this process changes them (rule-changes.ts). A project known to have no rule at all can be skipped without any
 * work on ingest's side ({@link ProjectRuleCache.peek}).
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { loadProjectRules, type TProjectRules } from './rule-set.js';

/** How long a project's compiled rules are reused before being read again, in ms (other replicas' edits show by then). */
export const RULE_CACHE_TTL_MS = 10_000;

interface TEntry {
  value: Promise<TProjectRules | null>;
  resolved: TProjectRules | null | undefined;
  expiresAt: number;
}

/** Project id → compiled rules, with a TTL and explicit invalidation. */
export class ProjectRuleCache {
  private readonly entries = new Map<number, TEntry>();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly ttlMs = RULE_CACHE_TTL_MS,
  ) {}

  /** The project's compiled rules (null: no such project), read when absent or expired. */
  get(projectId: number): Promise<TProjectRules | null> {
    const now = Date.now();
    const hit = this.entries.get(projectId);
    if (hit && hit.expiresAt > now) return hit.value;
    const entry: TEntry = { value: loadProjectRules(this.db, projectId, this.log), resolved: undefined, expiresAt: now + this.ttlMs };
    this.entries.set(projectId, entry);
    entry.value.then(
      (v) => {
        entry.resolved = v;
      },
      () => {
        if (this.entries.get(projectId) === entry) this.entries.delete(projectId);
      },
    );
    return entry.value;
  }

  /** The fresh, already-read rules of a project, or undefined when they would have to be read. */
  peek(projectId: number): TProjectRules | null | undefined {
    const hit = this.entries.get(projectId);
    return hit && hit.expiresAt > Date.now() ? hit.resolved : undefined;
  }

  /** Forgets project `projectId` (its rules changed). */
  invalidate(projectId: number): void {
    this.entries.delete(projectId);
  }
}
