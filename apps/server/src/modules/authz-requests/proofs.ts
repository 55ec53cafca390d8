/**
 * The proofs an authorisation request carries (docs/decisions/authorisation.md "Proofs"), by the project's
 * `device_authz_method`: `all` needs none; `qrcode` needs the claim code printed on the device (an HMAC-SHA-256 of its
 * Tangram ID under a platform key, so it cannot be guessed from the ID and never expires with the device);
 * `ble` needs the device's current BLE proof code (contracts device-proof.ts), which only someone next to it can read.
 */
import { createHmac } from 'node:crypto';
import { ErrorCode, isBleProofCode, type TDeviceAuthzMethod } from '@tessera/contracts';
import { digestEquals } from '../../core/crypto.js';
import { badRequest } from '../../core/errors.js';
import { purposeKey } from '../../core/purpose-key.js';
import type { Db } from '../../db/client.js';

const CLAIM_KEY_SETTING = 'device_claim_qr_secret';
/** Bytes of the HMAC kept in a claim code: 128 bits, 22 base64url characters (short enough for a small QR code). */
const CLAIM_CODE_BYTES = 16;

/** The claim code printed on device `tangramId` (upper-case Tangram ID) for projects authorised by QR code. */
export async function qrClaimCode(db: Db, tangramId: string): Promise<string> {
  const key = await purposeKey(db, CLAIM_KEY_SETTING);
  return createHmac('sha256', key).update(tangramId).digest().subarray(0, CLAIM_CODE_BYTES).toString('base64url');
}

/** The device facts a proof is checked against. */
export interface TProofDevice {
  tangramId: string;
  /** SHA-256 hex digest of the device's MQTT secret (the BLE code's key). */
  secretHash: string;
}

/**
 * Checks `proof` for `method` on `device` at `nowMs`.
 * @throws AppError 400 AUTHZ_PROOF_REQUIRED when the method needs a proof and none came (the message names the
 * method); 400 AUTHZ_PROOF_INVALID when it does not match.
 */
export async function checkProof(
  db: Db,
  method: TDeviceAuthzMethod,
  device: TProofDevice,
  proof: string | undefined,
  nowMs: number,
): Promise<void> {
  if (method === 'all') return;
  if (!proof) {
    throw badRequest(
      method === 'qrcode'
        ? 'this device is authorised by QR code: scan the code on the device'
        : 'this device is authorised over BLE: enter the code the device shows',
      ErrorCode.AuthzProofRequired,
    );
  }
  const ok =
    method === 'qrcode'
      ? digestEquals(Buffer.from(proof).toString('hex'), Buffer.from(await qrClaimCode(db, device.tangramId)).toString('hex'))
      : isBleProofCode(device.secretHash, proof, nowMs);
  if (!ok) throw badRequest('the code does not match this device', ErrorCode.AuthzProofInvalid);
}
