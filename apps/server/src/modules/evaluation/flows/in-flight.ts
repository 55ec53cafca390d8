/**
 * Runs of each platform rule queued or running in this process (docs/platform-rules.md "Statuses"): a rule being
 * stopped stays `stopping` while any hold it, and the stop settler (stop-settler.ts) asks which rules are held.
 */

/** Counts the runs holding each rule (rule id → count). */
export class InFlightRuns {
  private readonly byRule = new Map<number, number>();

  /** Runs of `ruleId` holding it now. */
  count(ruleId: number): number {
    return this.byRule.get(ruleId) ?? 0;
  }

  /** The ids of the rules at least one run holds. */
  ruleIds(): number[] {
    return [...this.byRule.keys()];
  }

  /** Marks a run of `ruleId` in flight; answers its release, which only its first call counts. */
  track(ruleId: number): () => void {
    this.byRule.set(ruleId, this.count(ruleId) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = this.count(ruleId) - 1;
      if (n <= 0) this.byRule.delete(ruleId);
      else this.byRule.set(ruleId, n);
    };
  }
}
