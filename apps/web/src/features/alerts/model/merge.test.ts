import type { TAlert } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { mergeAlert } from './merge';

const alert = (id: number, first: number, state: TAlert['state'] = 'open'): TAlert => ({
  id,
  level: 'alert',
  state,
  message: `m${id}`,
  rule: { kind: 'simple', id: 1, index: 0, name: 'r' },
  device: { id: 1, tangram_id: 'T', name: 'd' },
  project: { id: 1, name: 'p' },
  product: { id: 1, name: 'q' },
  trigger: null,
  first_seen_at: first,
  last_seen_at: first,
  count: 1,
  flapping: false,
  acknowledged_at: null,
  acknowledged_by: null,
  resolved_at: null,
  resolved_by: null,
  resolved_reason: null,
});
const ids = (list: TAlert[]) => list.map((a) => a.id);

describe('mergeAlert', () => {
  const list = [alert(3, 300), alert(2, 200), alert(1, 100)];

  it('puts a new alert first and reports it as new', () => {
    const r = mergeAlert(list, alert(4, 400));
    expect(ids(r.list)).toEqual([4, 3, 2, 1]);
    expect(r.isNew).toBe(true);
  });
  it('replaces a listed alert in place, silently', () => {
    const r = mergeAlert(list, { ...alert(2, 200), state: 'acknowledged', count: 5 });
    expect(ids(r.list)).toEqual([3, 2, 1]);
    expect(r.list[1]).toMatchObject({ state: 'acknowledged', count: 5 });
    expect(r.isNew).toBe(false);
  });
  it('keeps the cap, dropping the oldest', () => {
    const r = mergeAlert(list, alert(4, 400), 3);
    expect(ids(r.list)).toEqual([4, 3, 2]);
  });
  it('ignores an alert older than a full list, and never chimes for it', () => {
    const r = mergeAlert(list, alert(0, 50), 3);
    expect(ids(r.list)).toEqual([3, 2, 1]);
    expect(r.isNew).toBe(false);
  });
  it('inserts an older alert at its place when there is room; an unlisted resolved one does not chime', () => {
    const r = mergeAlert(list, alert(9, 150, 'resolved'));
    expect(ids(r.list)).toEqual([3, 2, 9, 1]);
    expect(r.isNew).toBe(false);
  });
  it('orders equal first-seen times by id', () => {
    expect(ids(mergeAlert([alert(5, 100)], alert(6, 100)).list)).toEqual([6, 5]);
  });
});
