import { describe, expect, it } from 'vitest';
import { applyPending, freshTs, mergeNewer, type TPendingDevice } from './device-state.js';
import { emptyDeviceValues, type TLatestPoint } from './device-values.js';
import { heldRowIndex, heldSlotOf } from './rule-state-store.js';

const point = (ts: number, v: number): TLatestPoint => ({ ts, vs: [v, Number.NaN, Number.NaN] });
const pending = (points: [string, number, number][], status: TPendingDevice['status'] = null): TPendingDevice => ({
  points: new Map(points.map(([k, ts, v]) => [k, point(ts, v)])),
  status,
});

describe('which committed points are fresh (out-of-order by ts)', () => {
  it('only points newer than the value held for their key; equal ts is a resend', () => {
    const values = emptyDeviceValues();
    expect(applyPending(values, pending([['t', 100, 1]]), false).keys).toEqual(new Set(['t']));
    expect(applyPending(values, pending([['t', 90, 2]]), false).keys).toEqual(new Set());
    expect(applyPending(values, pending([['t', 100, 3]]), false).keys).toEqual(new Set());
    expect(values.telemetry.get('t')).toEqual(point(100, 1));
    const fresh = applyPending(
      values,
      pending(
        [
          ['t', 101, 4],
          ['h', 50, 9],
        ],
        { ts: 7, value: 3 },
      ),
      false,
    );
    expect([...fresh.keys].sort()).toEqual(['h', 't']);
    expect(fresh.status).toBe(true);
    expect(freshTs(values, fresh)).toBe(101);
    expect(applyPending(values, pending([], { ts: 7, value: 4 }), false).status).toBe(false);
  });

  it('just read from the database (which already holds the batch): the same ts counts once', () => {
    const values = emptyDeviceValues();
    values.telemetry.set('t', point(100, 1));
    expect(applyPending(values, pending([['t', 100, 1]]), true).keys).toEqual(new Set(['t']));
    expect(applyPending(values, pending([['t', 99, 1]]), true).keys).toEqual(new Set());
  });

  it("another replica's newer values are taken without making anything fresh", () => {
    const values = emptyDeviceValues();
    values.telemetry.set('t', point(100, 1));
    const stored = emptyDeviceValues();
    stored.telemetry.set('t', point(90, 5));
    stored.telemetry.set('h', point(95, 6));
    stored.status = 12;
    stored.statusTs = 80;
    mergeNewer(values, stored);
    expect(values.telemetry.get('t')).toEqual(point(100, 1));
    expect(values.telemetry.get('h')).toEqual(point(95, 6));
    expect([values.status, values.statusTs]).toEqual([12, 80]);
  });
});

describe('held timers in alert_rule_states', () => {
  it('use negative rule indexes that round-trip and never meet an alert rule index', () => {
    for (const [rule, slot] of [
      [0, 0],
      [0, 255],
      [19, 3],
    ]) {
      expect(heldRowIndex(rule, slot)).toBeLessThan(0);
      expect(heldSlotOf(heldRowIndex(rule, slot))).toEqual({ ruleIndex: rule, slot });
    }
  });
});
