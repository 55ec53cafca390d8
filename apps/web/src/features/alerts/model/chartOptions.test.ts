import type { TAlertStatistics } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { dailyStackOption, levelPieOption, namedBarOption } from './chartOptions';

const stats: TAlertStatistics = {
  from: 0,
  to: 1,
  total: 4,
  by_level: { remind: 1, early_warning: 1, alert: 2 },
  by_project: [
    { id: 1, name: 'A', count: 3 },
    { id: 2, name: 'B', count: 1 },
  ],
  by_product: [],
  by_day: [
    { day: Date.UTC(2026, 2, 1), remind: 0, early_warning: 1, alert: 2 },
    { day: Date.UTC(2026, 2, 2), remind: 1, early_warning: 0, alert: 0 },
  ],
};
const label = (l: string) => `L:${l}`;

describe('statistics chart options', () => {
  it('pies the levels with their labels and colours', () => {
    const series = (levelPieOption(stats, label).series as { data: { name: string; value: number }[] }[])[0];
    expect(series.data.map((d) => [d.name, d.value])).toEqual([
      ['L:remind', 1],
      ['L:early_warning', 1],
      ['L:alert', 2],
    ]);
  });
  it('bars named counts with the largest on top', () => {
    const o = namedBarOption(stats.by_project, 'alerts');
    expect((o.yAxis as { data: string[] }).data).toEqual(['B', 'A']);
    expect((o.series as { data: number[] }[])[0].data).toEqual([1, 3]);
  });
  it('stacks each day by level', () => {
    const series = dailyStackOption(stats, label).series as { name: string; stack: string; data: number[] }[];
    expect(series.map((s) => [s.name, s.data])).toEqual([
      ['L:remind', [0, 1]],
      ['L:early_warning', [1, 0]],
      ['L:alert', [2, 0]],
    ]);
    expect(new Set(series.map((s) => s.stack)).size).toBe(1);
  });
});
