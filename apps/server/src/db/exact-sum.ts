/**
 * Sums of float8 columns that cannot overflow. PostgreSQL's float8 `sum`, `avg` and `+` raise "value out of range:
 * overflow" past ±1.8e308, so two points of 1.7e308 would make any statement adding them fail. These helpers add in
 * `numeric` (exact, unbounded for doubles) and convert back to float8 only where an answer must be a double.
 * Ordinary values are still added in float8 (fast): below FAST_SUM_ABS_MAX a float8 sum cannot overflow for fewer
 * than 1e18 rows, so only rows at least that large take the numeric path.
 */
import { sql, type SQL } from 'drizzle-orm';

/** The largest finite double, as a numeric literal (17 significant digits round to exactly Number.MAX_VALUE). */
const FLOAT8_MAX = sql.raw('1.7976931348623157e308');
/** Magnitude under which float8 addition is used: 1e290 × 1e18 rows stays under Number.MAX_VALUE. */
const FAST_SUM_ABS_MAX = sql.raw('1e290');

/**
 * The aggregate sum of float8 expression `v` as `numeric`, null when no row has a value. The float8 part is converted
 * through text (shortest exact representation), not with `::numeric`, which keeps only 15 significant digits.
 */
export function exactSum(v: SQL): SQL {
  return sql`(case when count(${v}) = 0 then null else
    coalesce((sum(${v}) filter (where abs(${v}) < ${FAST_SUM_ABS_MAX}))::text::numeric, 0)
    + coalesce(sum(${v}::text::numeric) filter (where abs(${v}) >= ${FAST_SUM_ABS_MAX}), 0) end)`;
}

/**
 * Numeric expression `x` as float8, saturating at ±Number.MAX_VALUE: a sum beyond what a double holds answers the
 * largest double of its sign rather than an error (JSON has no infinity). Null stays null.
 */
export function toFloat8Saturated(x: SQL): SQL {
  // not least/greatest: they skip nulls, so an empty bucket would answer -MAX
  return sql`(case when ${x} > ${FLOAT8_MAX} then ${FLOAT8_MAX} when ${x} < -${FLOAT8_MAX} then -${FLOAT8_MAX} else ${x} end)::float8`;
}
