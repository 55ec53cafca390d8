/**
 * The cloud fee estimate of a project's configuration (spec §2 system tab, §9 "TWD"):
 *
 *   messages/month = devices × Σ (month seconds ÷ upload period seconds)      over enabled sensors with period > 0
 *   points/month   = devices × Σ (month seconds ÷ upload period seconds × values per point)
 *   stored bytes   = devices × Σ points/day × (raw days kept × 5 + 1 hot day × 141)
 *                    + devices × Σ (min(points/day, 1,440) × 1-min days kept + min(points/day, 24) × 1-h days kept) × 200
 *                    with each retention in days, "for ever" counted as the {@link STORAGE_HORIZON_DAYS} horizon
 *   cost           = messages/month ÷ 10⁶ × price per million messages + points/month ÷ 10⁶ × price per million points
 *                    + stored bytes ÷ 10⁹ × price per GB-month
 *
 * One upload of a sensor is one MQTT message carrying one point of `value_count` values (docs/protocol.md).
 */
import { DAY_MS, type TFeeEstimate, type TRetention } from '@tessera/contracts';
import { PRICING, STORAGE_BYTES, STORAGE_HORIZON_DAYS, type TPricing } from './pricing.js';

/** The sensor fields the estimate reads (periods in milliseconds). */
export interface TFeeSensorInput {
  key: string;
  enabled: boolean;
  uploadPeriodMs: number;
  valueCount: number;
}

const cents = (twd: number) => Math.round(twd * 100) / 100;

/** Kept for ever: the default retention. */
const FOREVER: TRetention = { raw_days: null, rollup_1m_days: null, rollup_1h_days: null };

/** Raw points and rollup rows one device keeps on disk for `sensors` under `retention` (see the file comment). */
function keptPerDevice(sensors: readonly TFeeSensorInput[], retention: TRetention) {
  const days = (d: number | null) => Math.min(d ?? STORAGE_HORIZON_DAYS, STORAGE_HORIZON_DAYS);
  let points = 0;
  let rollupRows = 0;
  let bytes = 0;
  for (const s of sensors) {
    if (!s.enabled || s.uploadPeriodMs <= 0) continue;
    const perDay = DAY_MS / s.uploadPeriodMs;
    const rows = Math.min(perDay, 1_440) * days(retention.rollup_1m_days) + Math.min(perDay, 24) * days(retention.rollup_1h_days);
    points += perDay * days(retention.raw_days);
    rollupRows += rows;
    bytes +=
      perDay * (days(retention.raw_days) * STORAGE_BYTES.compressedPoint + STORAGE_BYTES.hotDays * STORAGE_BYTES.hotPoint) +
      rows * STORAGE_BYTES.rollupRow;
  }
  return { points, rollupRows, bytes };
}

/**
 * Computes the estimate for `devices` devices running `sensors` whose telemetry is kept by `retention` (default: for
 * ever), priced by `pricing` (default {@link PRICING}).
 */
export function estimateFee(
  sensors: readonly TFeeSensorInput[],
  devices: number,
  pricing: TPricing = PRICING,
  retention: TRetention = FOREVER,
): TFeeEstimate {
  const monthMs = pricing.monthDays * DAY_MS;
  const rows = sensors.map((s) => {
    const active = s.enabled && s.uploadPeriodMs > 0;
    const messages = active ? monthMs / s.uploadPeriodMs : 0;
    return {
      key: s.key,
      enabled: s.enabled,
      upload_period_ms: s.uploadPeriodMs,
      value_count: s.valueCount,
      messages_per_device: messages,
      points_per_device: messages * s.valueCount,
    };
  });
  const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((acc, r) => acc + pick(r), 0);
  const messages = devices * sum((r) => r.messages_per_device);
  const points = devices * sum((r) => r.points_per_device);
  const messageCost = (messages / 1e6) * pricing.messagesPerMillion;
  const pointCost = (points / 1e6) * pricing.pointsPerMillion;
  const kept = keptPerDevice(sensors, retention);
  const storageCost = ((devices * kept.bytes) / 1e9) * pricing.storagePerGbMonth;
  return {
    currency: 'TWD',
    devices,
    month_days: pricing.monthDays,
    sensors: rows,
    messages_per_month: Math.round(messages),
    points_per_month: Math.round(points),
    storage: {
      retention,
      horizon_days: STORAGE_HORIZON_DAYS,
      raw_points_kept: Math.round(devices * kept.points),
      rollup_rows_kept: Math.round(devices * kept.rollupRows),
      bytes_kept: Math.round(devices * kept.bytes),
    },
    price: {
      messages_per_million: pricing.messagesPerMillion,
      points_per_million: pricing.pointsPerMillion,
      storage_per_gb_month: pricing.storagePerGbMonth,
    },
    cost: {
      messages: cents(messageCost),
      points: cents(pointCost),
      storage: cents(storageCost),
      total: cents(messageCost + pointCost + storageCost),
    },
  };
}
