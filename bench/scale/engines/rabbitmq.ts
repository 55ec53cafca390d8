/**
 * A private RabbitMQ 3.10 node for the engine comparison (the server tests' launcher, apps/server/test/rabbitmq.ts):
 * the MQTT plugin publishes to `amq.topic` with `/` → `.` in the routing key; QoS 1 publishes are persistent and their
 * PUBACK waits for the queues' confirm (RabbitMQ MQTT plugin docs). Devices log in as the internal user.
 */
import { createRabbitNode } from '@tessera/server/testing';
import type { TEngine } from './engine.js';

const USER = 'bench';

/** A RabbitMQ engine whose consumer drains a durable queue of `queueType` over AMQP 0-9-1. */
export async function rabbitmqEngine(queueType: 'classic' | 'quorum'): Promise<TEngine> {
  const node = await createRabbitNode({ adminUser: USER, adminPassword: USER });
  return {
    name: `RabbitMQ MQTT → durable ${queueType} queue, AMQP consumer`,
    mqttPort: node.mqttPort,
    deviceLogin: { username: USER, password: USER },
    consumer: { kind: 'amqp', url: node.amqpUrl, queueType },
    start: () => node.restart(),
    pid: () => node.pid(),
    kill9: () => node.kill(),
    dispose: () => node.stop(),
  };
}
