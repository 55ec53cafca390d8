/**
 * The external broker of the `MQTT_URL` tests: the system Mosquitto these machines run (anonymous allowed on
 * loopback), or TEST_MQTT_URL. Tests skip themselves where it is not reachable.
 */
import mqtt from 'mqtt';

/** The broker URL the external-mode tests join. */
export const EXTERNAL_MQTT_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** True when {@link EXTERNAL_MQTT_URL} accepts a connection within 2 s. */
export async function externalBrokerReachable(): Promise<boolean> {
  try {
    const c = await mqtt.connectAsync(EXTERNAL_MQTT_URL, { reconnectPeriod: 0, connectTimeout: 2_000 });
    await c.endAsync();
    return true;
  } catch {
    return false;
  }
}
