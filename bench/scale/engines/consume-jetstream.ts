/**
 * The JetStream consumer of nats-server: a file-backed work-queue stream over the MQTT listener's subjects
 * (`devices.*.telemetry`) and one durable pull consumer that every replica shares, pulled in batches of up to
 * 2,000 (nats.js `consume`, which asks for the next batch as the last one is used), each message acknowledged
 * after its commit. An unacknowledged message is redelivered `ACK_WAIT_MS` after its delivery (JetStream
 * consumers, AckWait), which is how a dead replica's messages reach another.
 */
import { AckPolicy, connect, type JsMsg, nanos, RetentionPolicy, StorageType } from 'nats';
import type { TNewBatch } from './consumer.js';
import { receivedId } from './messages.js';

/** The stream and durable consumer names. */
export const TELEMETRY_STREAM = 'TELEMETRY';
const DURABLE = 'replicas';
/** How long a delivered message may stay unacknowledged before JetStream redelivers it. */
const ACK_WAIT_MS = 5000;
const PULL_BATCH = 2000;
const MAX_ACK_PENDING = 20_000;

/** Connects, creates the stream and the durable consumer if missing, and starts pulling. */
export async function consumeJetStream(servers: string, newBatch: TNewBatch): Promise<void> {
  const nc = await connect({ servers, maxReconnectAttempts: -1, reconnectTimeWait: 300 });
  const jsm = await nc.jetstreamManager();
  await jsm.streams.add({
    name: TELEMETRY_STREAM,
    subjects: ['devices.*.telemetry'],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
  });
  await jsm.consumers.add(TELEMETRY_STREAM, {
    durable_name: DURABLE,
    ack_policy: AckPolicy.Explicit,
    ack_wait: nanos(ACK_WAIT_MS),
    max_ack_pending: MAX_ACK_PENDING,
  });
  const consumer = await nc.jetstream().consumers.get(TELEMETRY_STREAM, DURABLE);
  const batch = newBatch<JsMsg>((messages) => {
    for (const m of messages) m.ack();
  });
  const pull = async () => {
    for (;;) {
      const messages = await consumer.consume({ max_messages: PULL_BATCH });
      for await (const m of messages) batch.add(receivedId(m.subject, m.data), m);
    }
  };
  pull().catch((err: Error) => {
    console.error(`jetstream consumer: ${err.message}`);
    process.exit(1);
  });
}
