/**
 * MQTT consumers of Mosquitto's shared subscription (MQTT 5, `$share/<group>/…`, OASIS MQTT 5.0 §4.8.2).
 *
 * The tuned one holds up to 65,535 messages in flight (CONNECT Receive Maximum, §3.1.2.11.3) on one connection and
 * sends each PUBACK after its batch committed. MQTT.js handles one incoming packet at a time and sends a QoS 1
 * PUBACK when `handleMessage` calls back, so holding the callback would hold the connection to one message: the
 * consumer takes the message, calls back with an error (MQTT.js then sends nothing and reads the next packet) and
 * writes the PUBACK itself after the commit, on the same connection only (after a reconnect the broker redelivers).
 *
 * The baseline copies today's external-broker ingest (apps/server/src/modules/ingest/external-broker.ts: 4
 * connections, clean false, 600 s session expiry, `customHandleAcks` holding each message until its commit).
 */
import mqtt, { type IPublishPacket, type MqttClient } from 'mqtt';
import type { TNewBatch } from './consumer.js';
import { receivedId } from './messages.js';

const SHARED_FILTER = '$share/replicas/devices/+/telemetry';
/** Today's ingest connections per replica and session expiry (external-broker.ts). */
const BASELINE_CONNECTIONS = 4;
const BASELINE_SESSION_EXPIRY_S = 600;
const RECEIVE_MAXIMUM = 65_535;
const RECONNECT_MS = 300;

/** A held QoS 1 message: its packet id and the connection it arrived on (by its generation). */
interface THeld {
  messageId: number;
  generation: number;
}

/** The MQTT.js internal that writes a packet; the one way to send a PUBACK of our own. */
interface TPacketWriter {
  _sendPacket(packet: { cmd: 'puback'; messageId: number }, cb: () => void): void;
}

/** Connects the tuned consumer `replica` (many in flight, PUBACK after commit). */
export async function consumeMqttShared(url: string, replica: string, newBatch: TNewBatch): Promise<void> {
  let generation = 0;
  const client: MqttClient = await mqtt.connectAsync(url, {
    protocolVersion: 5,
    clientId: `engines-${replica}`,
    clean: false,
    reconnectPeriod: RECONNECT_MS,
    properties: { sessionExpiryInterval: 3600, receiveMaximum: RECEIVE_MAXIMUM },
  });
  client.on('close', () => {
    generation += 1;
  });
  client.on('error', () => undefined);
  const batch = newBatch<THeld>((held) => {
    const writer = client as unknown as TPacketWriter;
    for (const h of held)
      if (h.generation === generation && client.connected) writer._sendPacket({ cmd: 'puback', messageId: h.messageId }, () => undefined);
  });
  client.handleMessage = (packet: IPublishPacket, callback) => {
    if (packet.qos !== 1 || packet.messageId === undefined) return callback();
    batch.add(receivedId(packet.topic, packet.payload as Buffer), { messageId: packet.messageId, generation });
    callback(new Error('held until its batch commits'));
  };
  await client.subscribeAsync(SHARED_FILTER, { qos: 1 });
  // Mosquitto 2.0.11 restores a session from its persistence file (CONNACK session present) without routing to
  // its shared subscription, and MQTT.js resubscribes only when the session is absent: subscribe on every reconnect.
  client.on('connect', () => {
    client.subscribe(SHARED_FILTER, { qos: 1 });
  });
}

/** Connects the baseline consumer `replica`: today's four connections, one held message each. */
export async function consumeMqttBaseline(url: string, replica: string, newBatch: TNewBatch): Promise<void> {
  const batch = newBatch<(code: number) => void>((dones) => {
    for (const done of dones) done(0);
  });
  for (let i = 0; i < BASELINE_CONNECTIONS; i += 1) {
    const client = await mqtt.connectAsync(url, {
      protocolVersion: 5,
      clientId: `engines-${replica}-in${i}`,
      clean: false,
      reconnectPeriod: RECONNECT_MS,
      properties: { sessionExpiryInterval: BASELINE_SESSION_EXPIRY_S },
      customHandleAcks: (topic, message, _packet, done) => batch.add(receivedId(topic, message), done),
    });
    client.on('error', () => undefined);
    await client.subscribeAsync(SHARED_FILTER, { qos: 1 });
  }
}
