/**
 * The i18n keys of the LINE routes' error codes (spec §8 "Line Notify connection limit reached", "monthly push limit
 * exceeded") and of a push's delivery state; pure, so they are unit-tested.
 */
import { LineErrorCode, type TLinePushState } from '@tessera/contracts';

const CODE_KEYS: Record<string, string> = {
  [LineErrorCode.ConnectionLimit]: 'line.errors.connectionLimit',
  [LineErrorCode.QuotaExceeded]: 'line.errors.quotaExceeded',
  [LineErrorCode.NotConfigured]: 'line.errors.notConfigured',
  [LineErrorCode.NameTaken]: 'line.errors.nameTaken',
  [LineErrorCode.NoTargets]: 'line.errors.noTargets',
};

/** The message key for a failed LINE call (`fallback` when its code has no message of its own). */
export function lineErrorKey(error: unknown, fallback = 'errors.saveFailed'): string {
  const code = (error as { code?: unknown } | null)?.code;
  return (typeof code === 'string' && CODE_KEYS[code]) || fallback;
}

/** The label key of a push state. */
export function pushStateKey(state: TLinePushState): string {
  return `line.push.${state}`;
}
