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
};
