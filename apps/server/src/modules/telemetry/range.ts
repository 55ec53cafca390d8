/**
 * History range rules (spec §5 "History range at most 31 or 90 days"; docs/decisions/telemetry.md): raw rows
 * up to HISTORY_RANGE_DAYS, aggregated history and CSV downloads up to HISTORY_RANGE_MAX_DAYS. Ranges are
 * inclusive at both ends, epoch ms.
 */
import { DAY_MS, ErrorCode } from '@tessera/contracts';
import { badRequest } from '../../core/errors.js';

/**
 * Checks `startTs < endTs` and `endTs − startTs ≤ maxDays` days (exactly the bound is allowed).
 * @throws AppError 400 VALIDATION_FAILED when start is not before end; 400 RANGE_TOO_LONG when over the limit.
 */
export function assertRange(startTs: number, endTs: number, maxDays: number): void {
  if (startTs >= endTs) throw badRequest('startTs must be before endTs');
  if (endTs - startTs > maxDays * DAY_MS) {
    throw badRequest(`the range is longer than ${maxDays} days; choose a shorter period`, ErrorCode.RangeTooLong);
  }
}
