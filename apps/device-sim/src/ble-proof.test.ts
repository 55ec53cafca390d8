import { createHash } from 'node:crypto';
import { isBleProofCode } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { bleProof } from './ble-proof.js';

describe('simulator BLE proof', () => {
  it('is the code the server accepts for the digest of the same secret, and not for another secret', () => {
    const at = Date.UTC(2026, 10, 26, 9, 30);
    const code = bleProof({ secret: 'sim-secret-1' }, at);
    const digest = (s: string) => createHash('sha256').update(s).digest('hex');
    expect(isBleProofCode(digest('sim-secret-1'), code, at)).toBe(true);
    expect(isBleProofCode(digest('sim-secret-2'), code, at)).toBe(false);
  });
});
