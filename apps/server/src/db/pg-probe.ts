/**
 * The health probe of PostgreSQL (GET /healthz): `select 1` on a connection of its own, answered within a
 * deadline. Its own connection, because a pool busy with ingest under load must not make a healthy database look
 * down (and a load balancer then take a busy replica out); the deadline, because a partitioned database answers
 * nothing at all, and health must still answer within a second.
 */
import pg from 'pg';
import { settlesWithin } from '../core/deadline.js';
import { clientSettings, type TPgTimeouts } from './pg-pool.js';

/** A dedicated connection that answers "is PostgreSQL answering?". */
export class PgProbe {
  private client: pg.Client | null = null;
  private inFlight: Promise<boolean> | null = null;
  private closed = false;

  /**
   * @param url the database URL.
   * @param deadlineMs how long one probe may take, connecting included, in milliseconds.
   */
  constructor(
    private readonly url: string,
    private readonly deadlineMs: number,
  ) {}

  /** True when PostgreSQL answered `select 1` within the deadline. Concurrent calls share one probe. Never throws. */
  ping(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (!this.inFlight) {
      this.inFlight = this.probe().finally(() => {
        this.inFlight = null;
      });
    }
    return this.inFlight;
  }

  /** Closes the probe's connection (without waiting for a database that does not answer). */
  close(): void {
    this.closed = true;
    this.discard();
  }

  private async probe(): Promise<boolean> {
    let failed = false;
    const answered = this.selectOne().catch(() => {
      failed = true;
    });
    const up = (await settlesWithin(answered, this.deadlineMs)) && !failed;
    // A connection that failed or did not answer in time is not trusted again; the next probe opens a new one.
    if (!up) this.discard();
    return up;
  }

  private async selectOne(): Promise<void> {
    let client = this.client;
    if (!client) {
      const timeouts: TPgTimeouts = { connectMs: this.deadlineMs, statementMs: this.deadlineMs };
      const fresh = new pg.Client(clientSettings(this.url, timeouts));
      fresh.on('error', () => {
        if (this.client === fresh) this.client = null;
      });
      this.client = fresh;
      client = fresh;
      await fresh.connect();
    }
    await client.query('select 1');
  }

  private discard(): void {
    const client = this.client;
    this.client = null;
    // A connection that does not answer would wait forever for the goodbye: close its socket.
    client?.connection.stream.destroy();
  }
}
