/** The metrics endpoint's one credential: `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * True when `authorization` (the header's value) is `Bearer <token>` with `token` equal to `expected`. False when no
 * token is configured (`expected` undefined): without one, the metrics answer no one. Both sides are hashed first,
 * so the comparison takes the same time whatever the length or the first differing byte.
 */
export function isMetricsBearer(authorization: string | undefined, expected: string | undefined): boolean {
  if (!expected || !authorization) return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(match[1]), digest(expected));
}
