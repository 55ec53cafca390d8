/**
 * The external broker of the `MQTT_URL` tests: the system Mosquitto these machines run (anonymous allowed on
 * loopback), or TEST_MQTT_URL. Locally the tests skip themselves where it is not reachable; under CI (`CI=true`, set
 * by .ci/run) an unreachable broker fails them instead, so a green CI run means external-broker mode was tested.
 */
import mqtt from 'mqtt';

/** The broker URL the external-mode tests join. */
export const EXTERNAL_MQTT_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** True when `url` accepts an MQTT connection within 2 s. */
async function reachable(url: string): Promise<boolean> {
  try {
    const c = await mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 2_000 });
    await c.endAsync();
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the external-broker tests run: true when the broker is reachable; false (skip) when it is not, outside CI.
 * @throws under `CI=true` when the broker is not reachable (the suite must not pass by skipping).
 */
export async function externalBrokerReachable(env: NodeJS.ProcessEnv = process.env, url = EXTERNAL_MQTT_URL): Promise<boolean> {
  if (await reachable(url)) return true;
  if (env.CI === 'true' || env.CI === '1') {
    throw new Error(`CI=${env.CI}: the external MQTT broker ${url} is not reachable, so MQTT_URL mode would go untested`);
  }
  return false;
}
