/**
 * A consumer process standing for one server replica (forked, so the parent can kill -9 it mid-stream): drains the
 * engine named in its order with many messages in flight (except the baseline, which copies today's external-broker
 * ingest) and acknowledges each message only after its batch's commit. Committed ids go to the parent.
 */
import { CommitBatch } from './commit-batch.js';
import { consumeAmqp } from './consume-amqp.js';
import { consumeJetStream } from './consume-jetstream.js';
import { consumeMqttBaseline, consumeMqttShared } from './consume-mqtt.js';
import type { TConsumerTarget } from './engine.js';

/** The parent's order: which engine, and this replica's name (stable client ids, so a session can be resumed). */
export interface TConsumerOrder {
  type: 'order';
  target: TConsumerTarget;
  replica: string;
}

/** What the consumer reports: `ready` once subscribed, then each commit's ids. */
export type TConsumerReport = { type: 'ready' } | { type: 'committed'; ids: number[] };

/** Makes a commit batch whose messages are acknowledged through `ack` (what a token is depends on the engine). */
export type TNewBatch = <T>(ack: (tokens: T[]) => void) => CommitBatch<T>;

/** The commit: the ids reach the parent's pipe before any of them is acknowledged. */
function commit(ids: number[]): Promise<void> {
  return new Promise((resolve) => process.send?.({ type: 'committed', ids } satisfies TConsumerReport, () => resolve()));
}

const newBatch: TNewBatch = (ack) => new CommitBatch(commit, ack);

/** Subscribes to the engine of `order`; resolves once messages flow to the commit batches. */
function start({ target, replica }: TConsumerOrder): Promise<void> {
  switch (target.kind) {
    case 'mqtt-shared':
      return consumeMqttShared(target.url, replica, newBatch);
    case 'mqtt-baseline':
      return consumeMqttBaseline(target.url, replica, newBatch);
    case 'amqp':
      return consumeAmqp(target.url, target.queueType, newBatch);
    case 'jetstream':
      return consumeJetStream(target.url, newBatch);
  }
}

process.once('message', (order: TConsumerOrder) => {
  start(order).then(
    () => process.send?.({ type: 'ready' } satisfies TConsumerReport),
    (err: Error) => {
      console.error(`consumer ${order.replica}: ${err.message}`);
      process.exit(1);
    },
  );
});
