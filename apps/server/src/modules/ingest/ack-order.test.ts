import { describe, expect, it } from 'vitest';
import { AckOrder } from './ack-order.js';
import type { TPendingMessage } from './batch.js';

/** A committed message that records when its publisher was acknowledged. */
function message(name: string, acked: string[]): TPendingMessage {
  return { waiter: { resolve: () => acked.push(name), reject: () => undefined } } as unknown as TPendingMessage;
}

describe('AckOrder', () => {
  it('holds a later write that commits first until the earlier one has finished', () => {
    const acked: string[] = [];
    const order = new AckOrder();
    const first = order.begin();
    const second = order.begin();
    order.committed(second, [message('b1', acked), message('b2', acked)]);
    order.finished(second);
    expect(acked).toEqual([]);
    order.committed(first, [message('a1', acked)]);
    expect(acked).toEqual(['a1']);
    order.finished(first);
    expect(acked).toEqual(['a1', 'b1', 'b2']);
  });

  it('acknowledges at once when no earlier write is unfinished, and after a write given up', () => {
    const acked: string[] = [];
    const order = new AckOrder();
    const given = order.begin();
    const next = order.begin();
    order.finished(given); // nothing committed (the batch was given up)
    order.committed(next, [message('n1', acked)]);
    expect(acked).toEqual(['n1']);
  });
});
