/**
 * The replica's commit, simulated: received messages collect into a batch of up to `maxSize` or `flushMs` after the
 * first, the batch's ids are "committed" (reported to the parent process, which is where a replica would write the
 * database), and only then are the messages acknowledged to the engine. Commits run one after another, in order.
 */

/** Up to this many messages in one commit (the server's ingest batch). */
export const COMMIT_MAX_MESSAGES = 1000;
/** A batch commits at the latest this long after its first message, ms. */
export const COMMIT_FLUSH_MS = 20;

/** A batch of received messages waiting for their commit; `T` is what acknowledging one takes. */
export class CommitBatch<T> {
  private ids: number[] = [];
  private tokens: T[] = [];
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();

  /**
   * @param commit stores the ids (resolves once they are durable).
   * @param ack acknowledges the committed messages to the engine, in the order they arrived.
   */
  constructor(
    private readonly commit: (ids: number[]) => Promise<void>,
    private readonly ack: (tokens: T[]) => void,
  ) {}

  /** Adds a received message with id `id`, acknowledged later through `token`. */
  add(id: number, token: T): void {
    this.ids.push(id);
    this.tokens.push(token);
    if (this.ids.length >= COMMIT_MAX_MESSAGES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), COMMIT_FLUSH_MS);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ids = this.ids;
    const tokens = this.tokens;
    this.ids = [];
    this.tokens = [];
    this.chain = this.chain.then(async () => {
      await this.commit(ids);
      this.ack(tokens);
    });
  }
}
