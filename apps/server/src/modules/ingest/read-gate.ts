/**
 * The bound on what all devices' connections together make ingest hold (docs/decisions/ingest.md "Overload").
 * read-ahead.ts already makes a connection read its next chunk only while few of its packets are pending,
 * and admission.ts bounds the points admitted; but every connection's last chunk — up to hundreds of small
 * publishes — may still wait for admission, so what waits grew with the number of devices (measured: 510 devices of
 * 1-point messages at 3× capacity: 10,899 publishes waiting within 10 s and rising, RSS past 2× idle). This gate
 * counts the publishes handed to ingest and not yet answered, and their payload bytes; over either bound no device
 * connection reads its next chunk until enough are answered. The count rises synchronously as a chunk is parsed
 * (Aedes hands each publish to the hook while parsing), so at most one chunk is read past the bound.
 */

/** What read-ahead.ts asks before a connection reads its next chunk. */
export interface TReadGate {
  /** True while connections may read. */
  isOpen(): boolean;
  /** Calls `resume` once, on a later turn of the event loop, when the gate is open again. */
  whenOpen(resume: () => void): void;
}

/** Counts open publishes and their bytes against two bounds. */
export class ReadGate implements TReadGate {
  private openPublishes = 0;
  private openBytes = 0;
  private readers: (() => void)[] = [];
  private wakeScheduled = false;

  /**
   * @param maxPublishes publishes handed to ingest and not yet answered, above which connections stop reading
   * @param maxBytes their payload bytes, likewise
   */
  constructor(
    private readonly maxPublishes: number,
    private readonly maxBytes: number,
  ) {}

  /** Publishes and payload bytes open now. */
  get open(): { publishes: number; bytes: number } {
    return { publishes: this.openPublishes, bytes: this.openBytes };
  }

  isOpen(): boolean {
    return this.openPublishes < this.maxPublishes && this.openBytes < this.maxBytes;
  }

  whenOpen(resume: () => void): void {
    this.readers.push(resume);
    this.wake();
  }

  /** A publish of `bytes` was handed to ingest. */
  enter(bytes: number): void {
    this.openPublishes += 1;
    this.openBytes += bytes;
  }

  /** A publish of `bytes` was answered (acknowledged, refused or given up). */
  leave(bytes: number): void {
    this.openPublishes -= 1;
    this.openBytes -= bytes;
    this.wake();
  }

  /** Resumes the waiting readers on the next turn if the gate is open; each checks the gate again before reading. */
  private wake(): void {
    if (this.wakeScheduled || this.readers.length === 0 || !this.isOpen()) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      const readers = this.readers;
      this.readers = [];
      for (const resume of readers) resume();
    });
  }
}
