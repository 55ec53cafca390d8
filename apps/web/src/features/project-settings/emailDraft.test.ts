import { NOTIFICATION_EMAILS_MAX } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { checkEmailDraft } from './emailDraft';

describe('checkEmailDraft', () => {
  it('normalises a valid address', () => {
    expect(checkEmailDraft('  Ops@Example.COM ', [])).toEqual({ ok: true, email: 'ops@example.com' });
  });

  it('names why an address cannot be added', () => {
    expect(checkEmailDraft(' ', [])).toEqual({ ok: false, reason: 'required' });
    expect(checkEmailDraft('ops@', [])).toEqual({ ok: false, reason: 'invalid' });
    expect(checkEmailDraft('OPS@example.com', ['ops@example.com'])).toEqual({ ok: false, reason: 'duplicate' });
  });

  it(`allows the ${NOTIFICATION_EMAILS_MAX}th address and refuses one more`, () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => `n${i}@example.com`);
    expect(checkEmailDraft('new@example.com', list(NOTIFICATION_EMAILS_MAX - 1)).ok).toBe(true);
    expect(checkEmailDraft('new@example.com', list(NOTIFICATION_EMAILS_MAX))).toEqual({ ok: false, reason: 'tooMany' });
  });
});
