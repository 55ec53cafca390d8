/**
 * Acknowledgements of one AMQP channel, coalesced (AMQP 0-9-1 §1.8.3.13 `basic.ack` with `multiple`): RabbitMQ numbers
 * a channel's deliveries 1, 2, 3, …; messages are settled (stored, or given back) in roughly that order but not
 * exactly (batches commit out of order). The window sends one `ack(multiple)` for the longest settled prefix, at most
 * once per event-loop turn, instead of a frame per message.
 */

/** Sends the acknowledgement of every delivery up to and including `deliveryTag`. */
export type TAckUpTo = (deliveryTag: number) => void;

/** Tracks one channel's settled deliveries and acknowledges their contiguous prefix together. */
export class AckWindow {
  /** The lowest delivery tag not settled yet. */
  private next = 1;
  /** Settled tags at or past `next`: true when stored (to acknowledge), false when given back with `nack`. */
  private readonly settled = new Map<number, boolean>();
  private scheduled = false;

  constructor(private readonly ackUpTo: TAckUpTo) {}

  /**
   * Marks `deliveryTag` settled: `stored` (to acknowledge) or already given back with `nack` (RabbitMQ no longer counts
   * it as outstanding: a later `ack(multiple)` passing it is harmless, but one naming it would close the channel).
   */
  settle(deliveryTag: number, stored: boolean): void {
    if (deliveryTag < this.next) return;
    this.settled.set(deliveryTag, stored);
    if (deliveryTag !== this.next || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Deliveries settled but held back behind an unsettled one. */
  get heldBack(): number {
    return this.settled.size;
  }

  private flush(): void {
    this.scheduled = false;
    let lastStored = 0;
    for (let stored = this.settled.get(this.next); stored !== undefined; stored = this.settled.get(this.next)) {
      this.settled.delete(this.next);
      if (stored) lastStored = this.next;
      this.next += 1;
    }
    if (lastStored > 0) this.ackUpTo(lastStored);
  }
}
