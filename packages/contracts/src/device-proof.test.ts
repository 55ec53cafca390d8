import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BLE_PROOF_STEP_S } from './authz-requests.js';
import { bleProofCode, isBleProofCode } from './device-proof.js';

const digest = createHash('sha256').update('device-secret-of-test').digest('hex');
const other = createHash('sha256').update('another-device-secret').digest('hex');
const t0 = Date.UTC(2026, 10, 26, 8, 0, 0);
const stepMs = BLE_PROOF_STEP_S * 1000;

describe('BLE proof code (RFC 6238 TOTP, SHA-256, keyed by the secret digest)', () => {
  it('is six digits, the same within a step and different in the next', () => {
    const code = bleProofCode(digest, t0);
    expect(code).toMatch(/^\d{6}$/);
    expect(bleProofCode(digest, t0 + stepMs - 1)).toBe(code);
    expect(bleProofCode(digest, t0 + stepMs)).not.toBe(code);
  });

  it('is accepted one step either side and refused two steps away', () => {
    const code = bleProofCode(digest, t0);
    expect(isBleProofCode(digest, code, t0)).toBe(true);
    expect(isBleProofCode(digest, code, t0 + stepMs)).toBe(true);
    expect(isBleProofCode(digest, code, t0 - stepMs)).toBe(true);
    expect(isBleProofCode(digest, code, t0 + 2 * stepMs)).toBe(false);
  });

  it("refuses another device's code, and text that is not six digits", () => {
    expect(isBleProofCode(digest, bleProofCode(other, t0), t0)).toBe(false);
    expect(isBleProofCode(digest, '12345', t0)).toBe(false);
    expect(isBleProofCode(digest, 'abcdef', t0)).toBe(false);
    expect(isBleProofCode(digest, `${bleProofCode(digest, t0)}0`, t0)).toBe(false);
  });
});
