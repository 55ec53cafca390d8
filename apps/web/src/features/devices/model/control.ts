/** Display rules of the device control parts: which message a failed command shows, uptime and conditions as text. */
import { ErrorCode, type TUserRuleOp } from '@tessera/contracts';
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
export const OP_SYMBOL: Record<TUserRuleOp, string> = { gt: '>', gte: '≥', lt: '<', lte: '≤', eq: '=', neq: '≠' };

/** A rule's condition as one line, e.g. `vibration.v3 ≥ 1.25` (the slot is left out for v1). */
export function conditionText(rule: { key: string; slot: string; op: TUserRuleOp; threshold: number }, locale: string): string {
  const value = new Intl.NumberFormat(locale, { maximumFractionDigits: 6 }).format(rule.threshold);
  return `${rule.key}${rule.slot === 'v1' ? '' : `.${rule.slot}`} ${OP_SYMBOL[rule.op]} ${value}`;
}
