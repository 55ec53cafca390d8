/**
 * Questions one replica asks the others through the database's notifications (thingsboard-downlink.ts: "who holds
 * device t listening for RPC?", "who sent RPC request n?"): each replica listening answers yes or no, so the asker
 * stops at the first yes, or once every other replica said no — and waits out its deadline only for a replica that
 * does not answer. How many others there are is read from PostgreSQL: every replica's listening connection names
 * itself (core/database-listener.ts `listenerApplicationName`), so `pg_stat_activity` counts them. A replica on PGlite
 * is alone by construction (one process owns a PGlite).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { listenerApplicationName } from '../../core/database-listener.js';
import { rowsOf, type Database } from '../../db/client.js';

interface TPending {
  /** No answers still awaited before the question counts as answered no. */
  noesLeft: number;
  settle(yes: boolean): void;
}

/** The questions this replica waits on, by query id. */
export class ReplicaQueries {
  private readonly pending = new Map<string, TPending>();

  constructor(
    private readonly database: Database,
    private readonly channel: string,
  ) {}

  /**
   * How many other replicas listen on the channel now (`selfListening`: whether this replica's own listener is among
   * them); null when that cannot be read (then every question waits its deadline).
   */
  async otherListeners(selfListening: boolean): Promise<number | null> {
    if (this.database.kind === 'pglite') return 0;
    try {
      const result = await this.database.db.execute(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = ${listenerApplicationName(this.channel)}`,
      );
      const n = rowsOf<{ n: number }>(result)[0]?.n ?? 0;
      return Math.max(0, n - (selfListening ? 1 : 0));
    } catch {
      return null;
    }
  }

  /**
   * Sends the question (`send(q)`, `q` its query id) and resolves true at the first yes, false once `others` replicas
   * said no (at once for none) or after `deadlineMs`. `others` null: unknown, wait for a yes until the deadline.
   */
  async ask(send: (q: string) => Promise<void>, others: number | null, deadlineMs: number): Promise<boolean> {
    if (others === 0) return false;
    const q = randomUUID();
    const answered = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => settle(false), deadlineMs);
      const settle = (yes: boolean) => {
        clearTimeout(timer);
        this.pending.delete(q);
        resolve(yes);
      };
      this.pending.set(q, { noesLeft: others ?? Number.POSITIVE_INFINITY, settle });
    });
    await send(q);
    return answered;
  }

  /** Another replica answered question `q`: `yes` settles it; a no counts towards all of them saying no. */
  answered(q: string, yes: boolean): void {
    const p = this.pending.get(q);
    if (!p) return;
    if (yes) p.settle(true);
    else if (--p.noesLeft <= 0) p.settle(false);
  }

  /** Settles every open question no (the replica stops). */
  close(): void {
    for (const p of [...this.pending.values()]) p.settle(false);
  }
}
