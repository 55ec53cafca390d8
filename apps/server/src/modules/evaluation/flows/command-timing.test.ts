import { describe, expect, it } from 'vitest';
import { firstSendAt, sendAfter } from './command-timing.js';

const MINUTE = 60_000;
const at = (iso: string) => Date.parse(iso);

describe('scheduled command timing', () => {
  const once = { startAt: at('2026-11-25T10:00:00Z'), endAt: at('2026-11-25T11:00:00Z'), repeatCron: null, timeZone: 'UTC' };

  it('without a repeat: sends once at the start, at once when stored inside the window, never after it', () => {
    expect(firstSendAt(once, at('2026-11-25T09:00:00Z'))).toBe(once.startAt);
    expect(firstSendAt(once, at('2026-11-25T10:20:00Z'))).toBe(at('2026-11-25T10:20:00Z'));
    expect(firstSendAt(once, at('2026-11-25T11:00:01Z'))).toBeNull();
    expect(sendAfter(once, once.startAt, once.startAt)).toBeNull();
  });

  it('with a repeat: each cron time inside the window, in the schedule time zone', () => {
    // 02:00 in Taipei is 18:00 UTC the day before.
    const nightly = {
      startAt: at('2026-11-25T00:00:00Z'),
      endAt: at('2026-11-28T00:00:00Z'),
      repeatCron: '0 2 * * *',
      timeZone: 'Asia/Taipei',
    };
    const first = firstSendAt(nightly, at('2026-11-24T12:00:00Z'));
    expect(first).toBe(at('2026-11-25T18:00:00Z'));
    expect(sendAfter(nightly, first as number, first as number)).toBe(at('2026-11-26T18:00:00Z'));
    expect(sendAfter(nightly, at('2026-11-26T18:00:00Z'), at('2026-11-26T18:00:00Z'))).toBe(at('2026-11-27T18:00:00Z'));
    expect(sendAfter(nightly, at('2026-11-27T18:00:00Z'), at('2026-11-27T18:00:00Z'))).toBeNull();
  });

  it('a start on a cron time is itself a send; a backlog after an outage is skipped, not replayed', () => {
    const everyMinute = {
      startAt: at('2026-11-25T10:00:00Z'),
      endAt: at('2026-11-25T12:00:00Z'),
      repeatCron: '* * * * *',
      timeZone: 'UTC',
    };
    expect(firstSendAt(everyMinute, at('2026-11-25T09:00:00Z'))).toBe(everyMinute.startAt);
    expect(sendAfter(everyMinute, everyMinute.startAt, everyMinute.startAt + 30 * MINUTE + 5_000)).toBe(everyMinute.startAt + 31 * MINUTE);
  });
});
