import { describe, expect, it } from 'vitest';
import { ALERT_RANGE_MAX_DAYS, alertRangeProblem, resolveAlertRange, ZAlertFilterQuery, ZAlertStatisticsQuery } from './alerts.js';
import { guardRoute } from './features.js';
import { DAY_MS, HISTORY_RANGE_MAX_DAYS } from './limits.js';

describe('alert range (§5 "History range at most 31 or 90 days")', () => {
  it('is the long reading, as for telemetry downloads', () => {
    expect(ALERT_RANGE_MAX_DAYS).toBe(HISTORY_RANGE_MAX_DAYS);
  });
  it('allows exactly the bound and refuses one millisecond more; start must precede end', () => {
    expect(alertRangeProblem(0, ALERT_RANGE_MAX_DAYS * DAY_MS)).toBeNull();
    expect(alertRangeProblem(0, ALERT_RANGE_MAX_DAYS * DAY_MS + 1)).toBe('too_long');
    expect(alertRangeProblem(5, 5)).toBe('order');
    expect(alertRangeProblem(6, 5)).toBe('order');
  });
  it('defaults to the last 90 days before now, or before `to`', () => {
    expect(resolveAlertRange({}, 1_000 * DAY_MS)).toEqual({ from: 910 * DAY_MS, to: 1_000 * DAY_MS });
    expect(resolveAlertRange({ to: 500 * DAY_MS }, 1)).toEqual({ from: 410 * DAY_MS, to: 500 * DAY_MS });
    expect(resolveAlertRange({ from: 7, to: 9 }, 1)).toEqual({ from: 7, to: 9 });
  });
});

describe('alert filters', () => {
  it('read query strings and upper-case the Tangram ID', () => {
    const id = '540001010000010001000000000001'.toLowerCase();
    expect(ZAlertFilterQuery.parse({ level: 'alert', state: 'open', project_id: '3', device: id, from: '1', to: '2' })).toEqual({
      level: 'alert',
      state: 'open',
      project_id: 3,
      device: id.toUpperCase(),
      from: 1,
      to: 2,
    });
  });
  it('refuse unknown levels, states, short ids and offsets beyond ±14 h', () => {
    expect(ZAlertFilterQuery.safeParse({ level: 'panic' }).success).toBe(false);
    expect(ZAlertFilterQuery.safeParse({ state: 'closed' }).success).toBe(false);
    expect(ZAlertFilterQuery.safeParse({ device: 'ABC' }).success).toBe(false);
    expect(ZAlertStatisticsQuery.safeParse({ utc_offset_min: '840' }).success).toBe(true);
    expect(ZAlertStatisticsQuery.safeParse({ utc_offset_min: '-841' }).success).toBe(false);
  });
});

describe('alerts section in the route guard (§2 "alerts redirects to alerts/dashboard; children dashboard, statistics, history")', () => {
  const user = (fea: string[]) => ({ token: 't', level: 'user' as const, fea });
  it('opens every page with the section code, and a sibling page when only one sub-page is granted', () => {
    for (const page of ['/alerts/dashboard', '/alerts/statistics', '/alerts/history']) {
      expect(guardRoute(page, user(['5']))).toEqual({ kind: 'allow' });
    }
    expect(guardRoute('/alerts/history', user(['4', '5:1']))).toEqual({ kind: 'redirect', to: '/alerts/dashboard' });
    expect(guardRoute('/alerts/statistics', user(['4']))).toEqual({ kind: 'redirect', to: '/device/list' });
  });
});
