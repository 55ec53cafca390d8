import { describe, expect, it } from 'vitest';
import { parseWidgetParameter, type TWidgetType } from './dashboard.js';
import { parseWidgetParameterMini } from './dashboard-mini.js';

const ID = '540001000100010000000000000001';
const series = [{ tangram_id: ID, key: 'temperature' }];

/** Per widget type, parameters the classic schema accepts and refuses; the small schema must answer alike. */
const samples: Record<TWidgetType, unknown[]> = {
  latest: [
    { tangram_id: ID, key: 'temperature' },
    { tangram_id: ID, key: 'a.b-c_1', dashboard_page: 2, extra: true },
    { tangram_id: ID.toLowerCase(), key: 'temperature' },
    { tangram_id: ID.slice(1), key: 'temperature' },
    { tangram_id: `${ID}0`, key: 'temperature' },
    { tangram_id: ID, key: '' },
    { tangram_id: ID, key: 'k'.repeat(33) },
    { tangram_id: ID, key: 'k'.repeat(32) },
    { tangram_id: ID, key: 'bad key' },
    { tangram_id: ID, key: 'temperature', dashboard_page: 0 },
    { tangram_id: ID, key: 'temperature', dashboard_page: 1.5 },
    { key: 'temperature' },
    null,
    [],
  ],
  gauge: [
    { tangram_id: ID, key: 't', min: 0, max: 100 },
    { tangram_id: ID, key: 't', min: -5.5, max: 5, thresholds: [{ value: 1, color: '#00ff00' }] },
    { tangram_id: ID, key: 't', min: 10, max: 10 },
    { tangram_id: ID, key: 't', min: 11, max: 10 },
    { tangram_id: ID, key: 't', min: 0 },
    { tangram_id: ID, key: 't', min: '0', max: 1 },
    { tangram_id: ID, key: 't', min: 0, max: 1, thresholds: [{ value: 1, color: 'green' }] },
    { tangram_id: ID, key: 't', min: 0, max: 1, thresholds: Array.from({ length: 6 }, () => ({ value: 1, color: '#000000' })) },
    { tangram_id: ID, key: 't', min: 0, max: 1, thresholds: Array.from({ length: 5 }, () => ({ value: 1, color: '#000000' })) },
    { tangram_id: ID, key: 't', min: 0, max: 1, thresholds: null },
  ],
  line: [
    { series },
    { series, fn: 'max', range_ms: 3_600_000, refresh_min: 10 },
    { series: Array.from({ length: 10 }, () => series[0]) },
    { series: Array.from({ length: 11 }, () => series[0]) },
    { series: [] },
    { series, fn: 'median' },
    { series, range_ms: 1000 },
    { series, range_ms: 3_600_000.5 },
    { series, refresh_min: 15 },
    { series, refresh_min: '5' },
    { series: [{ tangram_id: ID }] },
    {},
  ],
  bar: [{ series }, { series, fn: 'count', range_ms: 30 * 86_400_000, refresh_min: 5 }, { series, refresh_min: 1 }, { fn: 'avg' }],
  status: [{ tangram_id: ID }, { tangram_id: 'X' }, {}],
  alerts: [{}, { limit: 1 }, { limit: 100 }, { limit: 0 }, { limit: 101 }, { limit: 2.5 }],
  devices: [
    { tangram_ids: [ID] },
    { tangram_ids: [ID], key: 'temperature' },
    { tangram_ids: [] },
    { tangram_ids: Array.from({ length: 21 }, () => ID) },
    { tangram_ids: [ID], key: 'a b' },
  ],
  platform: [
    { platform_telemetry_id: 3 },
    { platform_telemetry_id: 3, range_ms: 604_800_000 },
    { platform_telemetry_id: 0 },
    { platform_telemetry_id: 2 ** 31 },
    { platform_telemetry_id: 2 ** 31 - 1 },
    { platform_telemetry_id: 1, range_ms: 5 },
  ],
};

describe('parseWidgetParameterMini', () => {
  for (const [type, list] of Object.entries(samples) as [TWidgetType, unknown[]][]) {
    it(`accepts and refuses exactly what parseWidgetParameter does for ${type} widgets, with the same value`, () => {
      for (const sample of list) {
        const text = JSON.stringify(sample);
        const want = parseWidgetParameter(type, text);
        const got = parseWidgetParameterMini(type, text);
        expect(got.ok, text).toBe(want.ok);
        if (want.ok && got.ok) expect(got.value, text).toEqual(want.value);
      }
    });
  }

  it('refuses a parameter that is not JSON, as the classic parser does', () => {
    expect(parseWidgetParameterMini('latest', '{')).toEqual(parseWidgetParameter('latest', '{'));
  });

  it('names where a refused parameter is wrong', () => {
    const got = parseWidgetParameterMini('gauge', JSON.stringify({ tangram_id: ID, key: 't', min: 2, max: 1 }));
    expect(got).toEqual({ ok: false, problems: [{ path: 'max', message: 'min must be below max' }] });
  });
});
