/**
 * clean-data (spec §7 devices "POST clean-data", §5 "Deleting device telemetry needs a password", §8 "password
 * incorrect on clean-data"; docs/decisions/device-control.md): after the caller's own password checks out, one
 * transaction deletes the device's raw telemetry, rollups, latest values and status history. Wrong passwords are
 * slowed down like logins, per (account, client address), under a throttle of their own (password-throttle.ts), so
 * this cannot be used to guess a password faster than the login page; they do not count towards the account lock,
 * which a stolen session could otherwise use to lock its owner out (docs/decisions/auth.md "Wrong passwords").
 */
import { eq, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { ErrorCode, type TCleanDataResult } from '@tessera/contracts';
import { verifyPassword } from '../../core/crypto.js';
import { badRequest, notFound } from '../../core/errors.js';
import { rowsOf, type Db } from '../../db/client.js';
import { accounts, deviceStatus, devices, telemetryLatest, telemetryRollup } from '../../db/schema.js';
import { accountLocked } from '../auth/login.js';
import { clearAttempts, reserveAttempt } from '../auth/password-throttle.js';
import type { TDeviceRow } from '../devices/access.js';
import { deleteRawPoints } from '../telemetry-store/delete-points.js';

/**
 * Checks `password` against account `accountId`'s, for a request from `clientIp`.
 * @throws AppError 400 AUTH_PASSWORD_INCORRECT ("password incorrect"), 429 AUTH_LOGIN_THROTTLED (Retry-After) after
 * repeated wrong ones from this address, 423 AUTH_ACCOUNT_LOCKED while the account is locked, 404 when it is gone.
 */
export async function verifyCallerPassword(db: Db, accountId: number, password: string, clientIp: string): Promise<void> {
  const [account] = await db
    .select({ email: accounts.email, passwordHash: accounts.passwordHash, lockedUntil: accounts.lockedUntil })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!account) throw notFound('account');
  const now = Date.now();
  if (account.lockedUntil !== null && account.lockedUntil > now) throw accountLocked();
  const source = { email: account.email, purpose: 'clean_data' as const, clientIp };
  await reserveAttempt(db, source, now);
  if (!(await verifyPassword(account.passwordHash, password))) throw badRequest('password incorrect', ErrorCode.PasswordIncorrect);
  await clearAttempts(db, source);
}

/** Deletes the rows of `column`'s table whose value is `deviceId`; answers how many. */
async function deleteOf(tx: Pick<Db, 'execute'>, column: PgColumn, deviceId: number): Promise<number> {
  const res = await tx.execute(
    sql`with gone as (delete from ${column.table} where ${column} = ${deviceId} returning 1) select count(*)::int as n from gone`,
  );
  return rowsOf<{ n: number }>(res)[0].n;
}

/**
 * Deletes every stored point, rollup bucket, latest value and status word of `device`, and the status shown on the
 * device row, in one transaction; other devices' rows are untouched. The device itself, its ingest counters,
 * rules and command log stay.
 */
export async function cleanDeviceData(db: Db, device: TDeviceRow): Promise<TCleanDataResult> {
  return db.transaction(async (tx) => {
    const result = {
      telemetry: await deleteRawPoints(tx, device.id),
      rollups: await deleteOf(tx, telemetryRollup.deviceId, device.id),
      latest: await deleteOf(tx, telemetryLatest.deviceId, device.id),
      status: await deleteOf(tx, deviceStatus.deviceId, device.id),
    };
    await tx.update(devices).set({ statusValue: null, statusTs: null }).where(eq(devices.id, device.id));
    return result;
  });
}
