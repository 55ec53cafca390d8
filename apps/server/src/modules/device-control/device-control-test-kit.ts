/**
 * Helpers of the device-control integration tests: a scripted MQTT device that answers (or ignores) commands the
 * way a test needs, on the test server's broker.
 */
import { deviceClientId, topics, ZDeviceCommand } from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import type { TBuiltDevice } from '../../../test/device-factory.js';
import { connectMqtt } from '../ingest/ingest-test-kit.js';

/** A command as the scripted device received it. */
export interface TReceivedCommand {
  reqId: string;
  name: string;
  params: Record<string, unknown>;
}

/** What the script answers: a reply object or raw text to publish, or null to stay silent. */
export type TScript = (command: TReceivedCommand) => Promise<unknown> | unknown;

/** A connected scripted device. `received` lists every command it got, in order. */
export interface TScriptedDevice {
  client: MqttClient;
  received: TReceivedCommand[];
  stop(): Promise<void>;
}

/**
 * Connects as `device` (its Tangram ID and secret) to `url`, subscribes to its commands, and answers each with
 * `script` on the reply topic (a string is published as is, an object as JSON, null not at all).
 */
export async function startScriptedDevice(url: string, device: TBuiltDevice, script: TScript): Promise<TScriptedDevice> {
  const client = await connectMqtt(url, device.tangramId, device.secret, {
    clientId: deviceClientId(device.tangramId, `scripted-${Date.now()}`),
  });
  const received: TReceivedCommand[] = [];
  client.on('message', (topic, payload) => {
    const reqId = topic.split('/')[3];
    const command = ZDeviceCommand.safeParse(JSON.parse(payload.toString()));
    if (!command.success || !reqId) return;
    const got = { reqId, ...command.data };
    received.push(got);
    void Promise.resolve(script(got)).then((reply) => {
      if (reply === null || reply === undefined) return;
      const body = typeof reply === 'string' ? reply : JSON.stringify(reply);
      client.publish(topics.commandReply(device.tangramId, reqId), body, { qos: 1 });
    });
  });
  await client.subscribeAsync(`devices/${device.tangramId}/commands/+`, { qos: 1 });
  return { client, received, stop: () => client.endAsync() };
}
