/**
 * Platform-admin account tools (spec §7 GET admin/account, POST admin/account/switch). Only for `admin` level
 * (the routes check); accounts of every tenant are listed, because the platform admin stands above tenants.
 */
import { count, desc, eq } from 'drizzle-orm';
import type { TAccountSummary, TListQuery, TPage, TTokenResponse } from '@tessera/contracts';
import { notFound } from '../../core/errors.js';
import type { TokenService } from '../../core/tokens.js';
import { pageOf } from '../../db/paging.js';
import type { Db } from '../../db/client.js';
import { accounts, tenants } from '../../db/schema.js';
import { searchAny } from '../../db/sql-helpers.js';
import { presentAccountSummary } from './presenters.js';
import { issueTokenPair, type TActingAdmin } from './sessions.js';

/** A page of all accounts, newest first; `q` searches email, name and tenant name. */
export async function listAccounts(db: Db, query: TListQuery): Promise<TPage<TAccountSummary>> {
  const where = searchAny(query.q, [accounts.email, accounts.name, tenants.name]);
  const now = Date.now();
  return pageOf(
    query,
    db.select({ total: count() }).from(accounts).innerJoin(tenants, eq(tenants.id, accounts.tenantId)).where(where),
    (limit, offset) =>
      db
        .select({ account: accounts, tenantName: tenants.name })
        .from(accounts)
        .innerJoin(tenants, eq(tenants.id, accounts.tenantId))
        .where(where)
        .orderBy(desc(accounts.id))
        .limit(limit)
        .offset(offset),
    (r) => presentAccountSummary(r.account, r.tenantName, now),
  );
}

/**
 * Answers a token pair of `accountId` for `admin` to act as that account (a new session family whose tokens carry the
 * admin in their `act` claim; switching to one's own account is an ordinary session).
 * @throws AppError 404 when there is no such account.
 */
export async function switchToAccount(db: Db, tokens: TokenService, accountId: number, admin: TActingAdmin): Promise<TTokenResponse> {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw notFound('account');
  return issueTokenPair(db, tokens, account, undefined, account.id === admin.accountId ? null : admin);
}
