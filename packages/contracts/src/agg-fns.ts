/**
 * The aggregation functions of the v2 timeseries (spec §7 `fn`). In a module of its own, without zod: the dashboard's
 * widget parameters (dashboard-mini.ts) read it without loading classic zod.
 */
export const AGG_FNS = ['avg', 'min', 'max', 'sum', 'count'] as const;
