/**
 * Real MQTT.js device clients for the benchmarks: each device logs in with its Tangram ID as username and client id
 * (docs/protocol.md "Client ids") and its secret, one after another, without reconnecting.
 */
import mqtt, { type MqttClient } from 'mqtt';

/** Connects every device of `devices` to the broker on `mqttPort` (loopback); answers the clients in order. */
export async function connectDevices(mqttPort: number, devices: readonly { tangramId: string; secret: string }[]): Promise<MqttClient[]> {
  const clients: MqttClient[] = [];
  for (const d of devices) {
    clients.push(
      await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
        username: d.tangramId,
        password: d.secret,
        clientId: d.tangramId,
        reconnectPeriod: 0,
      }),
    );
  }
  return clients;
}
