/** The auth screens' countdowns: seconds left, and when the sign-up may mail a code again. */
import { describe, expect, it } from 'vitest';
import { RESEND_CODE_COOLDOWN_MS, resendAvailableAt, secondsUntil } from './countdown';

describe('secondsUntil', () => {
  it('rounds a part second up, so the last second still shows 1', () => {
    expect(secondsUntil(10_000, 0)).toBe(10);
    expect(secondsUntil(10_000, 9_001)).toBe(1);
    expect(secondsUntil(10_000, 8_999)).toBe(2);
  });
  it('is 0 at and after the moment, and without one', () => {
    expect(secondsUntil(10_000, 10_000)).toBe(0);
    expect(secondsUntil(10_000, 99_000)).toBe(0);
    expect(secondsUntil(null, 0)).toBe(0);
  });
});

describe('resendAvailableAt', () => {
  const sent = { email: 'a@example.com', sentAt: 1_000 };
  it('is null before any code was mailed', () => expect(resendAvailableAt(null, 'a@example.com')).toBeNull());
  it('waits the cooldown for the address the code went to, whatever its case and spaces', () => {
    expect(resendAvailableAt(sent, 'a@example.com')).toBe(1_000 + RESEND_CODE_COOLDOWN_MS);
    expect(resendAvailableAt(sent, ' A@Example.com ')).toBe(1_000 + RESEND_CODE_COOLDOWN_MS);
  });
  it('does not wait for another address (a corrected typo)', () => {
    expect(resendAvailableAt(sent, 'b@example.com')).toBeNull();
  });
  it('counts down the whole cooldown from the moment of sending', () => {
    const at = resendAvailableAt(sent, 'a@example.com');
    expect(secondsUntil(at, sent.sentAt)).toBe(RESEND_CODE_COOLDOWN_MS / 1_000);
    expect(secondsUntil(at, sent.sentAt + RESEND_CODE_COOLDOWN_MS)).toBe(0);
  });
});
