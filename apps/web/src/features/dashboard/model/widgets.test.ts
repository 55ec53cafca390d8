import type { TWidget } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { placeNew, sameLayout, toSave, withLayout } from './widgets';

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
});
