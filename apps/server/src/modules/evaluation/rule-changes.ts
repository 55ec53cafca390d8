/**
 * In-process notice that rules changed (docs/rules.md "Rule cache"): routes that change a project's rules, programs,
 * blockly setting, rule type or its devices' app rules call `ctx.ruleChanges.projectChanged(projectId)`, and this
 * process's engine drops its cached copy at once. Other replicas see the change when their copy expires
 * (RULE_CACHE_TTL_MS in project-cache.ts).
 */
import type { TRuleChanges } from '../../core/context.js';

/** The {@link TRuleChanges} of one server process: a fan-out to subscribed listeners. */
export class RuleChangeHub implements TRuleChanges {
  private readonly listeners = new Set<(projectId: number) => void>();

  /** Tells every listener that project `projectId`'s rules changed. */
  projectChanged(projectId: number): void {
    for (const listener of this.listeners) listener(projectId);
  }

  /** Adds a listener; answers the function that removes it. */
  subscribe(listener: (projectId: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
