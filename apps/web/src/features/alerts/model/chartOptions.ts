/**
 * ECharts options of the statistics page, built from a ZAlertStatistics answer: level shares (pie), counts per
 * project and per product (bars), and per day stacked by level. Pure, so the figures are unit-tested.
 */
import { ALERT_LEVELS, type TAlertLevel, type TAlertStatistics } from '@tessera/contracts';
import dayjs from 'dayjs';
import type { TAlertChartOption } from '../alertCharts';

/** Level colours, shared with the level tags: remind blue, early warning orange, alert red. */
export const LEVEL_COLORS: Record<TAlertLevel, string> = { remind: '#1677ff', early_warning: '#fa8c16', alert: '#f5222d' };

type TLabel = (level: TAlertLevel) => string;

/** A pie of the counts by level. */
export function levelPieOption(s: TAlertStatistics, label: TLabel): TAlertChartOption {
  return {
    tooltip: { trigger: 'item' },
    legend: { bottom: 0 },
    series: [
      {
        type: 'pie',
        radius: ['40%', '70%'],
        label: { show: false },
        data: ALERT_LEVELS.map((l) => ({ name: label(l), value: s.by_level[l], itemStyle: { color: LEVEL_COLORS[l] } })),
      },
    ],
  };
}

/** Horizontal bars of named counts (projects or products), largest on top. */
export function namedBarOption(items: readonly { name: string; count: number }[], seriesName: string): TAlertChartOption {
  const top = [...items].reverse();
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 8, right: 24, top: 8, bottom: 8, containLabel: true },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: top.map((i) => i.name) },
    series: [{ type: 'bar', name: seriesName, data: top.map((i) => i.count), itemStyle: { color: '#1677ff' } }],
  };
}

/** Columns per day (local date labels), stacked by level. */
export function dailyStackOption(s: TAlertStatistics, label: TLabel): TAlertChartOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { bottom: 0 },
    grid: { left: 8, right: 16, top: 16, bottom: 40, containLabel: true },
    xAxis: { type: 'category', data: s.by_day.map((d) => dayjs(d.day).format('MM-DD')) },
    yAxis: { type: 'value', minInterval: 1 },
    series: ALERT_LEVELS.map((l) => ({
      type: 'bar' as const,
      name: label(l),
      stack: 'level',
      itemStyle: { color: LEVEL_COLORS[l] },
      data: s.by_day.map((d) => d[l]),
    })),
  };
}
