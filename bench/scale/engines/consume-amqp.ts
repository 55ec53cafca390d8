/**
 * The AMQP 0-9-1 consumer of RabbitMQ: a durable queue bound to `amq.topic` with `devices.*.telemetry` (the MQTT
 * plugin's routing keys), prefetch 2,000 (basic.qos), manual acknowledgement after the commit. amqplib's recovery
 * reconnects after the node went away and runs the setup again; unacknowledged deliveries of a lost channel go
 * back to the queue (AMQP 0-9-1 §3.1.4), so the consumer only acknowledges on the channel a message came on.
 */
import amqp, { type Channel, type ChannelModel, type ConsumeMessage } from 'amqplib';
import type { TNewBatch } from './consumer.js';
import { receivedId } from './messages.js';

/** The queue every replica drains. */
export const TELEMETRY_QUEUE = 'telemetry';
const PREFETCH = 2000;

/** A held delivery: the message and the channel it came on. */
interface THeld {
  channel: Channel;
  message: ConsumeMessage;
}

/** Connects and starts consuming; resolves once the first consumer is registered. */
export async function consumeAmqp(url: string, queueType: 'classic' | 'quorum', newBatch: TNewBatch): Promise<void> {
  const batch = newBatch<THeld>((held) => {
    // Deliveries of one channel arrive in tag order: acknowledging the last of a run acknowledges the run.
    for (let i = 0; i < held.length; i += 1) {
      const next = held[i + 1];
      if (next && next.channel === held[i].channel) continue;
      try {
        held[i].channel.ack(held[i].message, true);
      } catch {
        // the channel closed since: the broker requeued these deliveries
      }
    }
  });
  const connection = await amqp.connect(url, {
    recovery: {
      initialDelay: 300,
      maxDelay: 1000,
      setup: async (model: ChannelModel) => {
        const channel = await model.createChannel();
        channel.on('error', () => undefined);
        const args = queueType === 'quorum' ? { 'x-queue-type': 'quorum' } : {};
        await channel.assertQueue(TELEMETRY_QUEUE, { durable: true, arguments: args });
        await channel.bindQueue(TELEMETRY_QUEUE, 'amq.topic', 'devices.*.telemetry');
        await channel.prefetch(PREFETCH);
        await channel.consume(TELEMETRY_QUEUE, (message: ConsumeMessage | null) => {
          if (message) batch.add(receivedId(message.fields.routingKey, message.content), { channel, message });
        });
      },
    },
  });
  connection.on('error', () => undefined);
}
