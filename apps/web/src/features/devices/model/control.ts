/** Display rules of the device control parts: which message a failed command shows, uptime and conditions as text. */
import { type TCompareOp, ErrorCode, isValueTestOp, type TUserRule } from '@tessera/contracts';
import type { TTranslate } from '../../../lib/zodRules';
import { HttpError } from '../../../lib/http';

/** i18n keys (under `deviceControl.remote.errors.`) of the command failures the page explains. */
const COMMAND_ERRORS: Record<string, string> = {
  [ErrorCode.DeviceOffline]: 'offline',
  [ErrorCode.DeviceTimeout]: 'timeout',
  [ErrorCode.DeviceError]: 'deviceError',
  [ErrorCode.BrokerUnavailable]: 'broker',
  [ErrorCode.Forbidden]: 'forbidden',
  [ErrorCode.Validation]: 'invalid',
};

/** The i18n key of a failed command's message; `failed` for anything unexpected. */
export function commandErrorKey(error: unknown): string {
  const code = error instanceof HttpError ? error.code : '';
  return `deviceControl.remote.errors.${COMMAND_ERRORS[code] ?? 'failed'}`;
}

/** Every key {@link commandErrorKey} can answer (for the locale test). */
export const COMMAND_ERROR_KEYS = [...new Set([...Object.values(COMMAND_ERRORS), 'failed'])].map((k) => `deviceControl.remote.errors.${k}`);

/** Uptime in seconds → whole days and `HH:MM:SS`. */
export function splitUptime(seconds: number): { days: number; hms: string } {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    days: Math.floor(s / 86_400),
    hms: `${pad(Math.floor((s % 86_400) / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`,
  };
}

/** The symbol of a rule comparison. */
export const OP_SYMBOL: Record<TCompareOp, string> = { gt: '>', gte: '≥', lt: '<', lte: '≤', eq: '=', neq: '≠' };

/**
 * A rule's condition as one line: `vibration.v3 ≥ 1.25` for a comparison (the slot is left out for v1, the number in
 * the locale's format), `state equals "fault"` / `door changed` for a value test (the operator translated, the value
 * as JSON).
 */
export function conditionText(rule: Pick<TUserRule, 'key' | 'slot' | 'op' | 'threshold' | 'value'>, locale: string, t: TTranslate): string {
  if (isValueTestOp(rule.op))
    return `${rule.key} ${t(`deviceControl.rules.ops.${rule.op}`)}${rule.value === null ? '' : ` ${JSON.stringify(rule.value)}`}`;
  const value = new Intl.NumberFormat(locale, { maximumFractionDigits: 6 }).format(rule.threshold ?? Number.NaN);
  return `${rule.key}${rule.slot === 'v1' ? '' : `.${rule.slot}`} ${OP_SYMBOL[rule.op]} ${value}`;
}
