/**
 * The cloud fee price table (spec §9 "cloud fee estimates in TWD"; decisions in docs/decisions/project-settings.md).
 * Prices are New Taiwan dollars per million; a month is 30 days. Changing a price here changes the estimate the
 * console shows; nothing is billed.
 */
/** A price table (tests pass their own). */
export interface TPricing {
  currency: 'TWD';
  monthDays: number;
  messagesPerMillion: number;
  pointsPerMillion: number;
  /** NT$ per GB (10⁹ bytes) of telemetry kept on disk for a month. */
  storagePerGbMonth: number;
}

/** Tessera's prices. */
export const PRICING: Readonly<TPricing> = {
  currency: 'TWD',
  /** Days in the estimated month. */
  monthDays: 30,
  /** NT$ per million MQTT messages received (ingest: broker, validation, batching). */
  messagesPerMillion: 10,
  /** NT$ per million values stored for a month (each value of a point's `vs` counts). */
  pointsPerMillion: 6,
  storagePerGbMonth: 3,
};

/**
 * What a stored point and a rollup row cost on disk (docs/decisions/telemetry-storage.md "What was measured"):
 * a compressed raw point 4.8 bytes (rounded up), a hot one 92 (compact rows, migration 0032) for the hot window (a day), a rollup row about 200
 * bytes with its index. "Kept for ever" is priced at what is on disk after {@link STORAGE_HORIZON_DAYS} (still
 * growing).
 */
export const STORAGE_BYTES = { compressedPoint: 5, hotPoint: 92, hotDays: 1, rollupRow: 200 } as const;
export const STORAGE_HORIZON_DAYS = 365;
