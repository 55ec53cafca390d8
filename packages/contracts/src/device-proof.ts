/**
 * The BLE proof of a device for projects authorised by `ble` (spec §3 `device_authz_method`; docs/decisions/
 * authorisation.md "Proofs"): a time-based one-time code (RFC 6238 TOTP, HMAC-SHA-256, {@link BLE_PROOF_DIGITS}
 * digits, {@link BLE_PROOF_STEP_S}-second steps) keyed by the SHA-256 digest of the device's MQTT secret. The device
 * computes it from the secret it holds and shows or sends it over BLE; the server checks it against the digest it
 * stores, so no new key is handed out and a code proves someone is next to the device now.
 */
import { Secret, TOTP } from 'otpauth';
import { BLE_PROOF_DIGITS, BLE_PROOF_STEP_S } from './authz-requests.js';

const ALGORITHM = 'SHA256';

/** The BLE proof code at `atMs` (epoch ms) of the device whose secret's SHA-256 digest is `secretDigestHex`. */
export function bleProofCode(secretDigestHex: string, atMs: number): string {
  return TOTP.generate({
    secret: Secret.fromHex(secretDigestHex),
    algorithm: ALGORITHM,
    digits: BLE_PROOF_DIGITS,
    period: BLE_PROOF_STEP_S,
    timestamp: atMs,
  });
}

/** Whether `code` is the device's BLE proof at `atMs`, one step either side (clock drift and typing time). */
export function isBleProofCode(secretDigestHex: string, code: string, atMs: number): boolean {
  if (!/^\d+$/.test(code) || code.length !== BLE_PROOF_DIGITS) return false;
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromHex(secretDigestHex),
    algorithm: ALGORITHM,
    digits: BLE_PROOF_DIGITS,
    period: BLE_PROOF_STEP_S,
    timestamp: atMs,
    window: 1,
  });
  return delta !== null;
}
