/**
 * Publishers' acknowledgements in the order of their writes (MQTT 3.1.1 §4.6, MQTT 5 §4.6: PUBACKs in the order of
 * their PUBLISHes): a connection reads ahead (read-ahead.ts), so its publishes span batches that commit in any order.
 * Each write holds the acknowledgements of its committed messages until every write started before it has finished.
 */
import type { TPendingMessage } from './batch.js';

/** One write's place in the order. */
export interface TAckTurn {
  finished: boolean;
  held: TPendingMessage[];
}

/** Writes in the order they started, and what each holds back. */
export class AckOrder {
  private readonly turns: TAckTurn[] = [];

  /** A write starts: its turn comes after every write started before. */
  begin(): TAckTurn {
    const turn: TAckTurn = { finished: false, held: [] };
    this.turns.push(turn);
    return turn;
  }

  /** `messages` of `turn` committed: acknowledged now if no earlier write is unfinished, else held. */
  committed(turn: TAckTurn, messages: readonly TPendingMessage[]): void {
    if (this.turns[0] === turn) for (const m of messages) m.waiter.resolve();
    else turn.held.push(...messages);
  }

  /** `turn`'s write is over (committed, split or given up): acknowledges what it and the writes after it may. */
  finished(turn: TAckTurn): void {
    turn.finished = true;
    for (let head = this.turns[0]; head; head = this.turns[0]) {
      for (const m of head.held) m.waiter.resolve();
      head.held = [];
      if (!head.finished) return;
      this.turns.shift();
    }
  }
}
