/**
 * The cloud fee estimate of a project's configuration (spec §2 system tab, §9 "TWD"):
 *
 *   messages/month = devices × Σ (month seconds ÷ upload period seconds)      over enabled sensors with period > 0
 *   points/month   = devices × Σ (month seconds ÷ upload period seconds × values per point)
 *   cost           = messages/month ÷ 10⁶ × price per million messages + points/month ÷ 10⁶ × price per million points
 *
 * One upload of a sensor is one MQTT message carrying one point of `value_count` values (docs/protocol.md).
 */
import { DAY_MS, type TFeeEstimate } from '@tessera/contracts';
import { PRICING, type TPricing } from './pricing.js';

/** The sensor fields the estimate reads (periods in milliseconds). */
export interface TFeeSensorInput {
  key: string;
  enabled: boolean;
  uploadPeriodMs: number;
  valueCount: number;
}

const cents = (twd: number) => Math.round(twd * 100) / 100;

/** Computes the estimate for `devices` devices running `sensors`, priced by `pricing` (default {@link PRICING}). */
export function estimateFee(sensors: readonly TFeeSensorInput[], devices: number, pricing: TPricing = PRICING): TFeeEstimate {
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
  return {
    currency: 'TWD',
    devices,
    month_days: pricing.monthDays,
    sensors: rows,
    messages_per_month: Math.round(messages),
    points_per_month: Math.round(points),
    price: { messages_per_million: pricing.messagesPerMillion, points_per_million: pricing.pointsPerMillion },
    cost: { messages: cents(messageCost), points: cents(pointCost), total: cents(messageCost + pointCost) },
  };
}
