/**
 * Remote-control commands on the device protocol (spec §7 "remoteControl getDeviceInfo and sensorCommand";
 * docs/protocol.md "Commands"). The server publishes `{ name, params }` on `devices/{id}/commands/{reqId}` (QoS 1,
 * not retained); the device answers `{ ok, result }` or `{ ok: false, error }` on `.../{reqId}/reply`. Device-side
 * payloads are camelCase like the rest of the protocol; the API presents them in snake_case (device-control.ts).
 */
import { z } from 'zod';
import { ZTelemetryPoint } from './protocol.js';
import { ZTelemetryKey } from './telemetry.js';

/** The commands the console sends (spec §7). */
export const DEVICE_COMMAND_NAMES = ['getDeviceInfo', 'sensorCommand'] as const;
export type TDeviceCommandName = (typeof DEVICE_COMMAND_NAMES)[number];

/** The sensorCommand action every device implements: answer the key's current reading. */
export const SENSOR_READ_ACTION = 'read';

/**
 * A sensorCommand action: a device-defined verb (`read` everywhere; firmware may add more, e.g. `calibrate`).
 * 1–32 characters, a letter first, then letters, digits or `_`.
 */
export const ZSensorAction = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'letters, digits and _');

/** sensorCommand params on the wire: `{ key, action }`. */
export const ZSensorCommandParams = z.object({ key: ZTelemetryKey, action: ZSensorAction });
export type TSensorCommandParams = z.infer<typeof ZSensorCommandParams>;

/** A received signal strength in dBm is within this range (0 is the strongest a radio reports). */
export const RSSI_MIN_DBM = -150;

/** getDeviceInfo result on the wire. `uptimeMs` since the device's last boot; `rssiDbm` of its network link. */
export const ZDeviceInfoReply = z.object({
  firmwareVersion: z.string().min(1).max(64),
  uptimeMs: z.number().int().nonnegative(),
  rssiDbm: z.number().min(RSSI_MIN_DBM).max(0),
  sensors: z.array(
    z.object({
      key: ZTelemetryKey,
      enabled: z.boolean(),
      uploadPeriodMs: z.number().int().nonnegative(),
    }),
  ),
});
export type TDeviceInfoReply = z.infer<typeof ZDeviceInfoReply>;

/** sensorCommand `read` result on the wire: the key's current reading, a telemetry point `{ key, ts, vs }`. */
export const ZSensorReading = ZTelemetryPoint;
export type TSensorReading = z.infer<typeof ZSensorReading>;
