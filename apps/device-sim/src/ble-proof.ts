/**
 * The device side of the BLE proof (docs/decisions/authorisation.md "Proofs"): the code a device shows or sends over
 * BLE so that someone next to it can ask for access to it. Computed from the MQTT secret the device holds.
 */
import { createHash } from 'node:crypto';
import { bleProofCode } from '@tessera/contracts';

/** The BLE proof code of `device` at `atMs` (epoch ms; now by default): six digits, valid about a minute. */
export function bleProof(device: { secret: string }, atMs = Date.now()): string {
  return bleProofCode(createHash('sha256').update(device.secret).digest('hex'), atMs);
}
