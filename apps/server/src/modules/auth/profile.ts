/** GET and PUT profile (spec §7): the caller's own account, with its tenant's name. */
import { eq } from 'drizzle-orm';
import type { TProfile, TProfileUpdate } from '@tessera/contracts';
import { notFound } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { accounts, tenants } from '../../db/schema.js';
import { presentProfile } from './presenters.js';

/**
 * The profile of `accountId`.
 * @throws AppError 404 when the account no longer exists (a token outliving its account).
 */
export async function getProfile(db: Db, accountId: number): Promise<TProfile> {
  const [row] = await db
    .select({ account: accounts, tenantName: tenants.name })
    .from(accounts)
    .innerJoin(tenants, eq(tenants.id, accounts.tenantId))
    .where(eq(accounts.id, accountId));
  if (!row) throw notFound('account');
  return presentProfile(row.account, row.tenantName);
}

/** Updates name and/or language of `accountId`; answers the new profile. @throws AppError 404 as {@link getProfile}. */
export async function updateProfile(db: Db, accountId: number, input: TProfileUpdate): Promise<TProfile> {
  if (input.name !== undefined || input.language !== undefined) {
    await db.update(accounts).set({ name: input.name, language: input.language }).where(eq(accounts.id, accountId));
  }
  return getProfile(db, accountId);
}
