import { ZONE_BOUNDARIES_MM_S } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { chartTop, toMotorHealthOption, zoneBands } from './motorHealthOption';

const boundaries = ZONE_BOUNDARIES_MM_S.group2_rigid;
const labels = { A: 'A', B: 'B', C: 'C', D: 'D' };

describe('motor-health chart', () => {
  it('draws the four zones as bands from 0 to the chart top, meeting at the class boundaries', () => {
    expect(zoneBands(boundaries, 6)).toEqual({ A: [0, 1.4], B: [1.4, 2.8], C: [2.8, 4.5], D: [4.5, 6] });
  });

  it('keeps room above the C/D boundary, and above the highest value', () => {
    expect(chartTop([], boundaries)).toBeCloseTo(4.5 * 1.25, 9);
    expect(chartTop([{ ts: 0, velocity_mm_s: 10 }], boundaries)).toBeCloseTo(11, 9);
  });

  it('plots the velocity line with a band per zone', () => {
    const option = toMotorHealthOption({
      series: [
        { ts: 1_000, velocity_mm_s: 1.2 },
        { ts: 2_000, velocity_mm_s: 3.1 },
      ],
      boundaries,
      xMin: 0,
      xMax: 3_000,
      name: 'vibration',
      unit: 'mm/s',
      zoneLabels: labels,
      locale: 'en',
    });
    const [line] = option.series as {
      data: [number, number][];
      markArea: { data: [{ name: string; yAxis: number }, { yAxis: number }][] };
    }[];
    expect(line.data).toEqual([
      [1_000, 1.2],
      [2_000, 3.1],
    ]);
    expect(line.markArea.data.map(([from, to]) => [from.name, from.yAxis, to.yAxis])).toEqual([
      ['A', 0, 1.4],
      ['B', 1.4, 2.8],
      ['C', 2.8, 4.5],
      ['D', 4.5, 4.5 * 1.25],
    ]);
  });
});
