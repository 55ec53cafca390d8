import type { TWidget } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { carryGridKeys, placeNew, sameLayout, toSave, withLayout } from './widgets';

const widget = (id: number, x: number, y: number, w = 4, h = 3): TWidget => ({
  id,
  type: 'latest',
  title: '',
  parameter: '{}',
  layout: { x, y, w, h },
});

describe('dashboard widget bookkeeping', () => {
  it('places a new widget in the first free spot of its default size, row by row', () => {
    expect(placeNew('line', [])).toEqual({ x: 0, y: 0, w: 6, h: 7 });
    expect(placeNew('latest', [widget(1, 0, 0, 4, 3), widget(2, 4, 0, 4, 6)])).toEqual({ x: 8, y: 0, w: 3, h: 3 });
    expect(placeNew('latest', [widget(1, 0, 0, 12, 3)])).toEqual({ x: 0, y: 3, w: 3, h: 3 });
    expect(placeNew('line', [widget(1, 0, 0, 4, 3), widget(2, 8, 0, 4, 3)])).toEqual({ x: 0, y: 3, w: 6, h: 7 });
  });
  it('takes the grid positions by id and tells when nothing moved', () => {
    const before = [widget(1, 0, 0), widget(2, 4, 0)];
    const after = withLayout(before, [
      { i: '1', x: 0, y: 3, w: 4, h: 3 },
      { i: '2', x: 4, y: 0, w: 4, h: 3 },
    ]);
    expect(after[0].layout).toEqual({ x: 0, y: 3, w: 4, h: 3 });
    expect(sameLayout(before, after)).toBe(false);
    expect(sameLayout(before, withLayout(before, [{ i: '1', x: 0, y: 0, w: 4, h: 3 }]))).toBe(true);
  });
  it('saves stored widgets by id and unsaved ones as new', () => {
    expect(toSave([widget(7, 0, 0), widget(-1, 0, 3)]).map((w) => [w.id, w.new])).toEqual([
      [7, false],
      [undefined, true],
    ]);
  });
  it('keeps a saved widget under the grid key it had while unsaved, and a stored one under its own', () => {
    const shown = [widget(7, 0, 0), widget(-1, 0, 3), widget(-2, 4, 3)];
    const first = carryGridKeys(shown, [widget(7, 0, 0), widget(12, 0, 3), widget(13, 4, 3)], new Map());
    expect([...first]).toEqual([
      [7, '7'],
      [12, '-1'],
      [13, '-2'],
    ]);
    // A later save of the same widgets, one deleted and one added: the keys carried earlier stay.
    const second = carryGridKeys(
      [widget(7, 0, 0), widget(13, 4, 3), widget(-3, 0, 6)],
      [widget(7, 0, 0), widget(13, 4, 3), widget(20, 0, 6)],
      first,
    );
    expect([...second]).toEqual([
      [7, '7'],
      [13, '-2'],
      [20, '-3'],
    ]);
    // A list from elsewhere (another tab's save): widgets never seen take their own id.
    expect(carryGridKeys([], [widget(30, 0, 0)], second).get(30)).toBe('30');
  });
});
