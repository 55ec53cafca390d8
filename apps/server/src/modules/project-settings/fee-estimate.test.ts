import { describe, expect, it } from 'vitest';
import { estimateFee } from './fee-estimate.js';
import { PRICING } from './pricing.js';

const sensor = (key: string, uploadPeriodMs: number, extra: { enabled?: boolean; valueCount?: number } = {}) => ({
  key,
  uploadPeriodMs,
  enabled: extra.enabled ?? true,
  valueCount: extra.valueCount ?? 1,
});

describe('estimateFee', () => {
  it('prices 2 sensors at 1 s and 10 s on 5 devices over a 30-day month (hand-computed)', () => {
    // 30 d = 2 592 000 s → 2 592 000 + 259 200 = 2 851 200 messages per device; × 5 = 14 256 000.
    // 14.256 M × NT$10 = 142.56; 14.256 M × NT$6 = 85.536 → 85.54.
    // Kept for ever = a year: per device 86 400 and 8 640 points a day × (365 × 5 + 92) bytes = 182 191 680, and
    // 2 × (1 440 × 365 + 24 × 365) rollup rows × 200 = 213 744 000; × 5 devices = 1.9796784 GB × NT$3 = 5.94.
    // Total 228.096 + 5.9390352 → 234.04.
    const fee = estimateFee([sensor('temperature', 1_000), sensor('humidity', 10_000)], 5, PRICING);
    expect(fee.month_days).toBe(30);
    expect(fee.sensors.map((s) => s.messages_per_device)).toEqual([2_592_000, 259_200]);
    expect(fee.messages_per_month).toBe(14_256_000);
    expect(fee.points_per_month).toBe(14_256_000);
    expect(fee.storage).toMatchObject({ horizon_days: 365, bytes_kept: 1_979_678_400 });
    expect(fee.cost).toEqual({ messages: 142.56, points: 85.54, storage: 5.94, total: 234.04 });
  });

  it('counts nothing for a sensor with period 0 or disabled', () => {
    const fee = estimateFee([sensor('a', 1_000), sensor('off', 0), sensor('disabled', 1_000, { enabled: false })], 2, PRICING);
    expect(fee.sensors.map((s) => s.messages_per_device)).toEqual([2_592_000, 0, 0]);
    expect(fee.messages_per_month).toBe(5_184_000);
  });

  it('counts every value of a multi-value point as stored, messages once', () => {
    // vibration x, y, z every 60 s on 1 device: 43 200 messages, 129 600 values.
    const fee = estimateFee([sensor('vibration', 60_000, { valueCount: 3 })], 1, PRICING);
    expect(fee.messages_per_month).toBe(43_200);
    expect(fee.points_per_month).toBe(129_600);
    expect(fee.cost).toEqual({ messages: 0.43, points: 0.78, storage: 0.33, total: 1.54 });
  });

  it('is zero without devices, and follows the price table it is given', () => {
    expect(estimateFee([sensor('a', 1_000)], 0, PRICING).cost.total).toBe(0);
    const fee = estimateFee([sensor('a', 1_000)], 1, {
      currency: 'TWD',
      monthDays: 31,
      messagesPerMillion: 100,
      pointsPerMillion: 0,
      storagePerGbMonth: 0,
    });
    expect(fee.messages_per_month).toBe(2_678_400);
    expect(fee.cost.total).toBe(267.84);
  });

  it('prices the disk the retention keeps: 7 days raw, 30 days of 1-min and a year of 1-h rollups', () => {
    // per device: 86 400 × (7 × 5 + 92) + 8 640 × (7 × 5 + 92) = 12 070 080 bytes of raw points;
    // 2 × (1 440 × 30 + 24 × 365) rows × 200 = 20 784 000; × 5 devices = 0.16427040 GB × NT$3 = 0.49.
    const retention = { raw_days: 7, rollup_1m_days: 30, rollup_1h_days: 365 };
    const fee = estimateFee([sensor('temperature', 1_000), sensor('humidity', 10_000)], 5, PRICING, retention);
    expect(fee.storage).toEqual({
      retention,
      horizon_days: 365,
      raw_points_kept: 5 * 7 * (86_400 + 8_640),
      rollup_rows_kept: 5 * 2 * (1_440 * 30 + 24 * 365),
      bytes_kept: 164_270_400,
    });
    expect(fee.cost).toEqual({ messages: 142.56, points: 85.54, storage: 0.49, total: 228.59 });
  });
});
