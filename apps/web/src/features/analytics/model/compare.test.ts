import type { TTimeseriesResponse } from '@tessera/contracts';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { activationPercent, chartsByUnit, comparedSeries, comparisonCsv, platformTelemetrySeries } from './compare';

const answer = (points: [number, number | null][]): TTimeseriesResponse => ({
  tangramId: 'X',
  key: 'k',
  fn: 'avg',
  bucket_ms: 60_000,
  source: 'raw',
  points: points.map(([ts, v]) => ({ ts, vs: [v] })),
});

describe('analytics comparison', () => {
  const keyInfo = [
    { key: 'temp', name: '溫度', unit: '°C' },
    { key: 'current', name: 'Current', unit: 'A' },
    { key: 'temp2', name: 'Outlet', unit: '°C' },
  ];

  it('compares every device × key, devices first, labelled by device and key name', () => {
    const series = comparedSeries(
      ['AAA111222333444', 'BBB111222333444'],
      ['temp', 'current'],
      keyInfo,
      new Map([['AAA111222333444', 'Pump']]),
    );
    expect(series.map((s) => s.label)).toEqual(['Pump · 溫度', 'Pump · Current', '111222333444 · 溫度', '111222333444 · Current']);
    expect(series.map((s) => s.unit)).toEqual(['°C', 'A', '°C', 'A']);
    expect(series.map((s) => s.id)).toEqual([
      'AAA111222333444/temp',
      'AAA111222333444/current',
      'BBB111222333444/temp',
      'BBB111222333444/current',
    ]);
  });

  it('compares platform telemetries beside devices, charted with the devices of the same unit', () => {
    const pts = platformTelemetrySeries([{ id: 7, name: 'Line power', unit: 'A' }]);
    expect(pts).toEqual([{ id: 'pt/7', tangramId: '', key: '', platformTelemetryId: 7, label: 'ƒ Line power', unit: 'A' }]);
    const all = [...comparedSeries(['A'], ['temp', 'current'], keyInfo, new Map()), ...pts];
    expect(chartsByUnit(all)).toEqual([
      { unit: '°C', series: [0] },
      { unit: 'A', series: [1, 2] },
    ]);
  });

  it('draws one chart per unit, and one chart when the units agree', () => {
    const mixed = comparedSeries(['A', 'B'], ['temp', 'current', 'temp2'], keyInfo, new Map());
    expect(chartsByUnit(mixed)).toEqual([
      { unit: '°C', series: [0, 2, 3, 5] },
      { unit: 'A', series: [1, 4] },
    ]);
    expect(chartsByUnit(comparedSeries(['A', 'B'], ['temp', 'temp2'], keyInfo, new Map()))).toHaveLength(1);
  });

  it('writes the charted buckets as CSV: a row per bucket start, empty where a series has none', () => {
    const series = comparedSeries(['A', 'B'], ['temp'], keyInfo, new Map([['A', 'a, "quoted"']]));
    const csv = comparisonCsv(series, [
      answer([
        [120_000, 2.5],
        [0, 1],
      ]),
      answer([
        [60_000, -3],
        [120_000, null],
      ]),
    ]);
    const parsed = Papa.parse<string[]>(csv.trim()).data;
    expect(parsed).toEqual([
      ['time', 'ts_ms', 'a, "quoted" · 溫度', 'A · 溫度'.replace('A', 'B')],
      ['1970-01-01T00:00:00.000Z', '0', '1', ''],
      ['1970-01-01T00:01:00.000Z', '60000', '', '-3'],
      ['1970-01-01T00:02:00.000Z', '120000', '2.5', ''],
    ]);
    expect(csv.split('\r\n')).toHaveLength(4);
  });

  it('gives the activation rate in percent, none without registered devices', () => {
    expect(activationPercent({ registered: 3, activated: 2 })).toBe(66.7);
    expect(activationPercent({ registered: 0, activated: 0 })).toBeNull();
  });
});
