import { describe, expect, it } from 'vitest';
import { NOTIFICATION_EMAILS_MAX, ZNotificationEmails } from './project-settings.js';

const list = (n: number) => Array.from({ length: n }, (_, i) => `ops${i}@example.com`);

describe('ZNotificationEmails', () => {
  it(`accepts ${NOTIFICATION_EMAILS_MAX} addresses and refuses one more`, () => {
    expect(ZNotificationEmails.safeParse({ emails: list(NOTIFICATION_EMAILS_MAX) }).success).toBe(true);
    expect(ZNotificationEmails.safeParse({ emails: list(NOTIFICATION_EMAILS_MAX + 1) }).success).toBe(false);
  });

  it('accepts an empty list and trims and lower-cases addresses', () => {
    expect(ZNotificationEmails.parse({ emails: [] })).toEqual({ emails: [] });
    expect(ZNotificationEmails.parse({ emails: [' Ops@Example.COM '] })).toEqual({ emails: ['ops@example.com'] });
  });

  it('refuses an invalid address and a duplicate differing only in case, naming its index', () => {
    expect(ZNotificationEmails.safeParse({ emails: ['not-an-email'] }).success).toBe(false);
    const dup = ZNotificationEmails.safeParse({ emails: ['a@example.com', 'A@Example.com'] });
    expect(dup.success).toBe(false);
    expect(dup.error?.issues[0]).toMatchObject({ path: ['emails', 1], message: 'duplicate email' });
  });
});
