import { describe, expect, it } from 'vitest';
import { appendLive, countDrawn, joinRealtime, toLines } from './series';

const msg = (list: { key: string; ts: number; vs: (number | null)[] }[]) => ({ topic: 'live/devices/X', list });

describe('toLines / countDrawn', () => {
  it('splits points into one line per value and counts only drawn values', () => {
    const lines = toLines(
      [
        { ts: 1, vs: [1, 2] },
        { ts: 2, vs: [3, null] },
      ],
      2,
    );
    expect(lines).toEqual([
      [
        [1, 1],
        [2, 3],
      ],
      [
        [1, 2],
        [2, null],
      ],
    ]);
    expect(countDrawn(lines)).toBe(3);
  });
  it('gives one empty line for no points', () => {
    expect(toLines([], 0)).toEqual([[]]);
    expect(countDrawn(toLines([], 0))).toBe(0);
  });
});

describe('appendLive', () => {
  it('appends in time order, replaces a resent ts, skips status words and drops old points', () => {
    let b = appendLive({}, msg([{ key: 't', ts: 100, vs: [1] }]), 1_000, 1_000);
    b = appendLive(
      b,
      msg([
        { key: 't', ts: 300, vs: [3] },
        { key: '$status', ts: 300, vs: [5] },
      ]),
      1_000,
      1_000,
    );
    b = appendLive(
      b,
      msg([
        { key: 't', ts: 200, vs: [2] },
        { key: 't', ts: 300, vs: [30] },
      ]),
      1_000,
      1_000,
    );
    expect(b).toEqual({
      t: [
        { ts: 100, vs: [1] },
        { ts: 200, vs: [2] },
        { ts: 300, vs: [30] },
      ],
    });
    b = appendLive(b, msg([{ key: 'u', ts: 1_250, vs: [9] }]), 1_000, 1_250);
    expect(b).toEqual({ t: [{ ts: 300, vs: [30] }], u: [{ ts: 1_250, vs: [9] }] });
  });
});

describe('joinRealtime', () => {
  it('puts live points after the last history bucket and cuts the window', () => {
    const history = [
      { ts: 0, vs: [0] },
      { ts: 100, vs: [1] },
      { ts: 200, vs: [2] },
    ];
    const live = [
      { ts: 150, vs: [9] },
      { ts: 250, vs: [3] },
    ];
    expect(joinRealtime(history, live, 100).map((p) => p.ts)).toEqual([100, 200, 250]);
    expect(joinRealtime([], live, 0).map((p) => p.ts)).toEqual([150, 250]);
  });
});
