import { parseWidgetParameter } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { toParameter } from './WidgetEditor';

const A = 'A'.repeat(30);
const B = 'B'.repeat(30);

describe('widget form → parameter', () => {
  it('makes a parameter each type accepts from only the fields its form shows', () => {
    const cases = [
      toParameter({ type: 'alerts', limit: 5 }),
      toParameter({ type: 'latest', devices: [A], key: 'temperature' }),
      toParameter({ type: 'gauge', devices: [A], key: 't', min: 0, max: 50, thresholds: [{ value: 30, color: '#ff0000' }] }),
      toParameter({ type: 'status', devices: [A] }),
      toParameter({ type: 'devices', devices: [A, B] }),
    ];
    const types = ['alerts', 'latest', 'gauge', 'status', 'devices'] as const;
    for (const [i, p] of cases.entries()) expect(parseWidgetParameter(types[i], JSON.stringify(p)).ok, types[i]).toBe(true);
  });
  it('crosses devices and keys into at most 10 chart series', () => {
    const p = toParameter({ type: 'line', devices: [A, B], keys: ['t', 'h'] });
    expect(p.series).toEqual([
      { tangram_id: A, key: 't' },
      { tangram_id: A, key: 'h' },
      { tangram_id: B, key: 't' },
      { tangram_id: B, key: 'h' },
    ]);
    expect((toParameter({ type: 'bar', devices: [A, B, A, B, A, B], keys: ['a', 'b'] }).series as unknown[]).length).toBe(10);
  });
});
