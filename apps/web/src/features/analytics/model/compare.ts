/**
 * The analytics comparison (spec §2 `analytics`, §5 "at most 5 devices"; docs/analytics.md): which series are
 * compared (each chosen device × key, its first value v1), how they are grouped into charts (one chart per unit, so
 * keys of different units never share an axis), and the CSV of what the charts show.
 */
import type { TTimeseriesResponse } from '@tessera/contracts';
import Papa from 'papaparse';

/**
 * One compared series — a device's key, or a platform telemetry (`platformTelemetryId`; its tangramId and key are
 * empty) — with the labels and unit the charts show. `id` tells series apart (`tangramId/key` or `pt/id`).
 */
export interface TComparedSeries {
  id: string;
  tangramId: string;
  key: string;
  platformTelemetryId?: number;
  /** `device label · key name`. */
  label: string;
  unit: string;
}

/** A key the chosen devices report: its name and unit. */
export interface TKeyInfo {
  key: string;
  name: string;
  unit: string;
}

/**
 * The series of `tangramIds` × `keys`, devices first (in the chosen order), labelled with `deviceLabels` (the last 12
 * digits of the Tangram ID when a label is unknown) and the key's name.
 */
export function comparedSeries(
  tangramIds: readonly string[],
  keys: readonly string[],
  keyInfo: readonly TKeyInfo[],
  deviceLabels: ReadonlyMap<string, string>,
): TComparedSeries[] {
  const info = new Map(keyInfo.map((k) => [k.key, k]));
  return tangramIds.flatMap((tangramId) =>
    keys.map((key) => {
      const k = info.get(key);
      const device = deviceLabels.get(tangramId) ?? tangramId.slice(-12);
      return { id: `${tangramId}/${key}`, tangramId, key, label: `${device} · ${k?.name ?? key}`, unit: k?.unit ?? '' };
    }),
  );
}

/** The series of chosen platform telemetries, labelled `ƒ name`. */
export function platformTelemetrySeries(chosen: readonly { id: number; name: string; unit: string }[]): TComparedSeries[] {
  return chosen.map((pt) => ({
    id: `pt/${pt.id}`,
    tangramId: '',
    key: '',
    platformTelemetryId: pt.id,
    label: `ƒ ${pt.name}`,
    unit: pt.unit,
  }));
}

/** A chart of the comparison: the unit its axis shows and the indexes of its series in the compared list. */
export interface TUnitChart {
  unit: string;
  series: number[];
}

/** One chart per distinct unit, in the order units first appear; one chart holds everything when all units agree. */
export function chartsByUnit(series: readonly TComparedSeries[]): TUnitChart[] {
  const charts = new Map<string, number[]>();
  series.forEach((s, i) => {
    const list = charts.get(s.unit) ?? [];
    list.push(i);
    charts.set(s.unit, list);
  });
  return [...charts].map(([unit, indexes]) => ({ unit, series: indexes }));
}

/** A series' buckets as the charts read them: a device key's timeseries answer or a platform telemetry's series. */
export type TSeriesAnswer = Pick<TTimeseriesResponse, 'points'>;

/** `[ts, v1]` pairs of a timeseries answer (v1 of each bucket; null where the bucket has none). */
export function seriesPoints(answer: TSeriesAnswer | undefined): [number, number | null][] {
  return (answer?.points ?? []).map((p) => [p.ts, p.vs[0] ?? null]);
}

/**
 * The CSV of the charts: a row per bucket start seen in any series (oldest first), columns `time` (ISO 8601, UTC),
 * `ts_ms`, then one per series (its label) holding its bucket value or nothing. CRLF line ends (RFC 4180).
 */
export function comparisonCsv(series: readonly TComparedSeries[], answers: readonly (TSeriesAnswer | undefined)[]): string {
  const byTs = new Map<number, (number | null)[]>();
  answers.forEach((answer, i) => {
    for (const [ts, v] of seriesPoints(answer)) {
      const row = byTs.get(ts) ?? Array<number | null>(series.length).fill(null);
      row[i] = v;
      byTs.set(ts, row);
    }
  });
  const rows = [...byTs].sort((a, b) => a[0] - b[0]).map(([ts, vs]) => [new Date(ts).toISOString(), ts, ...vs.map((v) => v ?? '')]);
  return Papa.unparse({ fields: ['time', 'ts_ms', ...series.map((s) => s.label)], data: rows }, { newline: '\r\n' });
}

/** The activation rate as a percentage with one decimal, or null when nothing is registered. */
export function activationPercent(c: { registered: number; activated: number }): number | null {
  return c.registered === 0 ? null : Math.round((c.activated / c.registered) * 1000) / 10;
}
