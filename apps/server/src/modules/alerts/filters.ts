/**
 * The WHERE clause of alert lists, statistics and the CSV (docs/decisions/alerts.md "Filters and range"): what the
 * caller may see, narrowed by the query's filters and its range (first seen in [from, to], both inclusive).
 */
import { and, between, eq, sql, type SQL } from 'drizzle-orm';
import { ALERT_RANGE_MAX_DAYS, alertRangeProblem, ErrorCode, resolveAlertRange, type TAlertFilterQuery } from '@tessera/contracts';
import { badRequest } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { alerts, devices } from '../../db/schema.js';
import { visibleAlertsCondition } from './access.js';

/**
 * The range `q` means (defaults per `resolveAlertRange`), checked against §5.
 * @throws AppError 400 VALIDATION_FAILED when from is not before to; 400 RANGE_TOO_LONG over ALERT_RANGE_MAX_DAYS.
 */
export function checkedAlertRange(q: { from?: number; to?: number }, nowMs = Date.now()): { from: number; to: number } {
  const range = resolveAlertRange(q, nowMs);
  const problem = alertRangeProblem(range.from, range.to);
  if (problem === 'order') throw badRequest('from must be before to');
  if (problem === 'too_long') {
    throw badRequest(`the range is longer than ${ALERT_RANGE_MAX_DAYS} days; choose a shorter period`, ErrorCode.RangeTooLong);
  }
  return range;
}

/**
 * The alerts `principal` may see that match every filter of `q` within `range`.
 * @throws AppError 400 VALIDATION_FAILED for `rule_id` without `rule_kind` (rule ids are per kind).
 */
export function alertFilterWhere(principal: TPrincipal, q: TAlertFilterQuery, range: { from: number; to: number }): SQL {
  if (q.rule_id !== undefined && q.rule_kind === undefined) throw badRequest('rule_id needs rule_kind');
  const device = q.device
    ? sql`${alerts.deviceId} in (select ${devices.id} from ${devices} where ${devices.tangramId} = ${q.device})`
    : undefined;
  return and(
    visibleAlertsCondition(principal),
    between(alerts.firstSeenAt, range.from, range.to),
    q.level ? eq(alerts.level, q.level) : undefined,
    q.state ? eq(alerts.state, q.state) : undefined,
    q.project_id ? eq(alerts.projectId, q.project_id) : undefined,
    q.product_id ? eq(alerts.productId, q.product_id) : undefined,
    q.rule_kind ? eq(alerts.ruleKind, q.rule_kind) : undefined,
    q.rule_id ? eq(alerts.ruleId, q.rule_id) : undefined,
    device,
  )!;
}
