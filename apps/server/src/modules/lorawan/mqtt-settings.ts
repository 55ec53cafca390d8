/**
 * An integration's MQTT transport as stored and as answered (docs/decisions/lorawan.md "ChirpStack's MQTT
 * integration"): the broker's URL, username, application id and password — the password sealed by the deployment's
 * secret box (core/secret-box.ts, bound to the project), answered only masked, opened only to connect.
 */
import { chirpstackUplinkTopic, type TLorawanMqtt, type TLorawanMqttInput, ZLorawanMqttInput } from '@tessera/contracts';
import { maskSecret, type TSecretBox } from '../../core/secret-box.js';
import type { lorawanIntegrations } from '../../db/schema.js';

type TRow = typeof lorawanIntegrations.$inferSelect;
/** The MQTT columns of an integration row. */
export type TMqttColumns = Pick<
  TRow,
  | 'transport'
  | 'mqttUrl'
  | 'mqttUsername'
  | 'mqttPasswordSealed'
  | 'mqttPasswordHint'
  | 'mqttApplicationId'
  | 'mqttState'
  | 'mqttStateAt'
  | 'mqttError'
>;

/** The secret box context of project `projectId`'s broker passwords (a sealed value copied elsewhere does not open). */
export const mqttPasswordContext = (projectId: number): string => `lorawan:${projectId}:mqtt_password`;

/**
 * The MQTT columns to write for `transport` and `input`, given what `current` holds: the password is kept when
 * `input.password` is omitted, cleared when empty, else sealed; the state starts over (`connecting`) whenever the
 * broker, the credentials or the application changed. `webhook` clears every MQTT column.
 */
export function mqttColumns(
  box: TSecretBox,
  projectId: number,
  transport: 'webhook' | 'mqtt',
  input: TLorawanMqttInput | null | undefined,
  current: TMqttColumns | null,
): TMqttColumns {
  if (transport === 'webhook' || !input) {
    return {
      transport: 'webhook',
      mqttUrl: null,
      mqttUsername: null,
      mqttPasswordSealed: null,
      mqttPasswordHint: null,
      mqttApplicationId: null,
      mqttState: null,
      mqttStateAt: null,
      mqttError: null,
    };
  }
  const v = ZLorawanMqttInput.parse(input);
  const password =
    v.password === undefined
      ? { mqttPasswordSealed: current?.mqttPasswordSealed ?? null, mqttPasswordHint: current?.mqttPasswordHint ?? null }
      : v.password === ''
        ? { mqttPasswordSealed: null, mqttPasswordHint: null }
        : { mqttPasswordSealed: box.encrypt(v.password, mqttPasswordContext(projectId)), mqttPasswordHint: v.password.slice(-4) };
  const isSame =
    current?.transport === 'mqtt' &&
    current.mqttUrl === v.url &&
    current.mqttUsername === v.username &&
    current.mqttApplicationId === v.application_id &&
    v.password === undefined;
  return {
    transport: 'mqtt',
    mqttUrl: v.url,
    mqttUsername: v.username,
    ...password,
    mqttApplicationId: v.application_id,
    mqttState: isSame ? current.mqttState : 'connecting',
    mqttStateAt: isSame ? current.mqttStateAt : Date.now(),
    mqttError: isSame ? current.mqttError : null,
  };
}

/** The MQTT transport of `row` as the API answers it (null for a webhook integration); never the password. */
export function presentMqtt(row: TMqttColumns): TLorawanMqtt | null {
  if (row.transport !== 'mqtt' || !row.mqttUrl || !row.mqttApplicationId) return null;
  return {
    url: row.mqttUrl,
    username: row.mqttUsername ?? '',
    password_masked: row.mqttPasswordHint === null ? null : maskSecret(row.mqttPasswordHint),
    application_id: row.mqttApplicationId,
    topic: chirpstackUplinkTopic(row.mqttApplicationId),
    state: row.mqttState ?? 'connecting',
    last_error: row.mqttError,
    state_at: row.mqttStateAt,
  };
}
