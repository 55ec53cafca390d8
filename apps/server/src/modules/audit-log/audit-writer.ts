/**
 * Writes audit entries in groups (docs/decisions/audit-log.md "Cost"): an entry handed over while an INSERT is under
 * way waits for the next one, which takes every entry that arrived meanwhile in one multi-row INSERT. Each caller's
 * promise resolves once its own entry is stored, so an answer still leaves only after its entry is written; under
 * concurrent changes the database sees one statement per round trip instead of one per change.
 */
import type { Db } from '../../db/client.js';
import { recordAudits, type TAuditEntryInput } from './record.js';

/** The most entries one INSERT takes. */
export const AUDIT_WRITE_BATCH_MAX = 500;

interface TQueued {
  entry: TAuditEntryInput;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Groups concurrent entries into multi-row INSERTs on `db`. */
export class AuditWriter {
  private readonly queue: TQueued[] = [];
  private writing: Promise<void> | null = null;

  constructor(private readonly db: Db) {}

  /**
   * Stores `entry` with the entries handed over beside it.
   * @throws the database error of the INSERT that held it.
   */
  write(entry: TAuditEntryInput): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ entry: { ...entry, at: entry.at ?? Date.now() }, resolve, reject });
      this.writing ??= this.drain();
    });
  }

  /** Resolves once every entry handed over so far has been written (or failed). */
  async idle(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const group = this.queue.splice(0, AUDIT_WRITE_BATCH_MAX);
      try {
        await recordAudits(
          this.db,
          group.map((q) => q.entry),
        );
        for (const q of group) q.resolve();
      } catch (err) {
        for (const q of group) q.reject(err);
      }
    }
    this.writing = null;
  }
}
