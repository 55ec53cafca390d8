/**
 * The benchmark's messages and their ids. A device `d<n>` publishes `{"temperature":[{"ts":…,"v":<seq>}]}` (one
 * point, docs/protocol.md) to `devices/d<n>/telemetry`; the id of a message is n × 10⁸ + seq, a number (so sets of a
 * million ids stay cheap), recovered by a consumer from the topic (or the routing key or subject, where `/` became
 * `.`) and the payload.
 */

const SEQ_SPAN = 100_000_000;

/** The topic device number `device` publishes to. */
export function telemetryTopic(device: number): string {
  return `devices/d${device}/telemetry`;
}

/** The payload of message `seq`: one temperature point stamped now (epoch ms). */
export function telemetryPayload(seq: number): string {
  return `{"temperature":[{"ts":${Date.now()},"v":${seq}}]}`;
}

/** The id of message `seq` of device `device`. */
export function messageId(device: number, seq: number): number {
  return device * SEQ_SPAN + seq;
}

/**
 * The id of a received message from its topic, routing key or subject and its payload.
 * @throws when the topic or the payload is not one this benchmark sends.
 */
export function receivedId(topic: string, payload: Buffer | Uint8Array): number {
  const device = /^devices[./]d(\d+)[./]telemetry$/.exec(topic);
  if (!device) throw new Error(`unexpected topic ${topic}`);
  const point = JSON.parse(Buffer.from(payload).toString('utf8')) as { temperature: { v: number }[] };
  return messageId(Number(device[1]), point.temperature[0].v);
}
