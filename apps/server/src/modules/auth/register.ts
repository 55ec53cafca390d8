/**
 * POST register/aiot (spec §7): opens an account with a mailed code. A vendor gets a new tenant it owns; a user
 * self-registering gets a tenant of its own too (a vendor's users join the vendor's tenant by invitation, a
 * later issue). Features are DEFAULT_FEATURES of the level. Answers a logged-in token pair.
 */
import { eq } from 'drizzle-orm';
import { DEFAULT_FEATURES, ErrorCode, type TRegisterRequest, type TTokenResponse } from '@tessera/contracts';
import { hashPassword } from '../../core/crypto.js';
import { conflict } from '../../core/errors.js';
import type { TokenService } from '../../core/tokens.js';
import type { Db } from '../../db/client.js';
import { accounts, tenants } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/sql-helpers.js';
import { issueTokenPair } from './sessions.js';
import { checkCode, claimCode } from './verification.js';

const emailTaken = () => conflict('this email already has an account', ErrorCode.EmailTaken);

/**
 * Registers `input` after checking its code; tenant, account, code use and session commit together.
 * @throws AppError 400 AUTH_CODE_INVALID (wrong or expired code), 409 EMAIL_TAKEN.
 */
export async function registerAccount(db: Db, tokens: TokenService, input: TRegisterRequest): Promise<TTokenResponse> {
  const codeId = await checkCode(db, input.email, 'register', input.code);
  const [existing] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, input.email));
  if (existing) throw emailTaken();
  const passwordHash = await hashPassword(input.password);
  const level = input.role === 'vendor' ? 'vendor' : 'user';
  try {
    return await db.transaction(async (tx) => {
      await claimCode(tx, codeId);
      const [tenant] = await tx.insert(tenants).values({ name: input.name }).returning({ id: tenants.id });
      const [account] = await tx
        .insert(accounts)
        .values({
          tenantId: tenant.id,
          email: input.email,
          name: input.name,
          passwordHash,
          level,
          features: [...DEFAULT_FEATURES[level]],
          language: input.language,
        })
        .returning();
      return issueTokenPair(tx, tokens, account);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
}
