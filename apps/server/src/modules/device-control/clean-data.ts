/**
 * clean-data (spec §7 devices "POST clean-data", §5 "Deleting device telemetry needs a password", §8 "password
 * incorrect on clean-data"; docs/decisions/device-control.md): after the caller's own password checks out, one
 * transaction deletes the device's raw telemetry, rollups, latest values and status history. Wrong passwords count
 * as login failures (the same lock-out), so this cannot be used to guess a password faster than the login page.
 */
import { eq, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { ErrorCode, type TCleanDataResult } from '@tessera/contracts';
import { verifyPassword } from '../../core/crypto.js';
import { badRequest, notFound } from '../../core/errors.js';
import { rowsOf, type Db } from '../../db/client.js';
import { accounts, deviceStatus, devices, telemetry, telemetryLatest, telemetryRollup } from '../../db/schema.js';
import { accountLocked, recordFailure } from '../auth/login.js';
import type { TDeviceRow } from '../devices/access.js';

/**
 * Checks `password` against account `accountId`'s. A wrong one counts towards the login lock-out; a right one
 * resets the count (as a login does).
 * @throws AppError 400 AUTH_PASSWORD_INCORRECT ("password incorrect"), 423 AUTH_ACCOUNT_LOCKED while locked or
 * when this failure locks it, 404 when the account is gone.
 */
export async function verifyCallerPassword(db: Db, accountId: number, password: string): Promise<void> {
  const [account] = await db
    .select({ passwordHash: accounts.passwordHash, lockedUntil: accounts.lockedUntil, failedLogins: accounts.failedLogins })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!account) throw notFound('account');
  const now = Date.now();
  if (account.lockedUntil !== null && account.lockedUntil > now) throw accountLocked();
  if (!(await verifyPassword(account.passwordHash, password))) {
    if (await recordFailure(db, accountId, now)) throw accountLocked();
    throw badRequest('password incorrect', ErrorCode.PasswordIncorrect);
  }
  if (account.failedLogins > 0) await db.update(accounts).set({ failedLogins: 0, lockedUntil: null }).where(eq(accounts.id, accountId));
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
      telemetry: await deleteOf(tx, telemetry.deviceId, device.id),
      rollups: await deleteOf(tx, telemetryRollup.deviceId, device.id),
      latest: await deleteOf(tx, telemetryLatest.deviceId, device.id),
      status: await deleteOf(tx, deviceStatus.deviceId, device.id),
    };
    await tx.update(devices).set({ statusValue: null, statusTs: null }).where(eq(devices.id, device.id));
    return result;
  });
}
