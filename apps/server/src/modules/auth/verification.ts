/**
 * Email verification codes (spec §7 verify-email, forgot-pwd, reset-pwd): 6 random digits, mailed, stored as
 * SHA-256, valid VERIFY_CODE_TTL_MS, at most VERIFY_CODE_MAX_ATTEMPTS wrong guesses. A new code supersedes the
 * older unused ones of the same email and purpose, so only the latest mail counts.
 */
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { ErrorCode, VERIFY_CODE_MAX_ATTEMPTS, VERIFY_CODE_TTL_MS, type TLanguage } from '@tessera/contracts';
import type { TMailer } from '../../core/context.js';
import { digestEquals, randomCode, sha256 } from '../../core/crypto.js';
import { badRequest } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { verificationCodes } from '../../db/schema.js';
import { renderCodeMail } from '../mail/templates.js';
import type { TDbOrTx } from './db-types.js';

/** What a code is for. */
export type TCodePurpose = 'register' | 'reset';

/** The spec's "verification code expired or wrong" (§8 messages). */
export const codeInvalid = () => badRequest('verification code expired or wrong', ErrorCode.CodeInvalid);

/** Draws a new code for `email`/`purpose`, stores its hash (superseding older ones) and mails it in `language`. */
export async function sendVerificationCode(
  db: Db,
  mailer: TMailer,
  input: { email: string; purpose: TCodePurpose; language: TLanguage },
): Promise<void> {
  const code = randomCode();
  const now = Date.now();
  await db.transaction(async (tx) => {
    await tx
      .update(verificationCodes)
      .set({ usedAt: now })
      .where(and(eq(verificationCodes.email, input.email), eq(verificationCodes.purpose, input.purpose), isNull(verificationCodes.usedAt)));
    await tx
      .insert(verificationCodes)
      .values({ email: input.email, purpose: input.purpose, codeHash: sha256(code), expiresAt: now + VERIFY_CODE_TTL_MS });
  });
  await mailer.enqueue({ to: input.email, ...renderCodeMail(input.purpose, input.language, code) });
}

/**
 * Checks `code` against the live code of `email`/`purpose` and answers its row id (to {@link claimCode} in the
 * caller's transaction). The attempt is counted before the code is compared, in the one UPDATE that also checks the
 * count (`attempts < VERIFY_CODE_MAX_ATTEMPTS`): PostgreSQL re-checks that condition on the row a concurrent request
 * has just updated, so however many requests arrive at once, at most VERIFY_CODE_MAX_ATTEMPTS are ever compared. A
 * right code spends an attempt too; it is counted outside any transaction, so a failing request cannot roll it back.
 * @throws AppError 400 AUTH_CODE_INVALID when there is no live code, its attempts are spent, or `code` is wrong.
 */
export async function checkCode(db: Db, email: string, purpose: TCodePurpose, code: string): Promise<number> {
  const live = db
    .select({ id: verificationCodes.id })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.email, email),
        eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.usedAt),
        gt(verificationCodes.expiresAt, Date.now()),
      ),
    )
    .orderBy(desc(verificationCodes.id))
    .limit(1);
  const [row] = await db
    .update(verificationCodes)
    .set({ attempts: sql`${verificationCodes.attempts} + 1` })
    .where(and(eq(verificationCodes.id, live), isNull(verificationCodes.usedAt), lt(verificationCodes.attempts, VERIFY_CODE_MAX_ATTEMPTS)))
    .returning({ id: verificationCodes.id, codeHash: verificationCodes.codeHash });
  if (!row || !digestEquals(row.codeHash, sha256(code))) throw codeInvalid();
  return row.id;
}

/**
 * Marks code `id` used inside the caller's transaction; a concurrent request that used it first wins.
 * @throws AppError 400 AUTH_CODE_INVALID when it was used meanwhile.
 */
export async function claimCode(tx: TDbOrTx, id: number): Promise<void> {
  const claimed = await tx
    .update(verificationCodes)
    .set({ usedAt: Date.now() })
    .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.usedAt)))
    .returning({ id: verificationCodes.id });
  if (claimed.length === 0) throw codeInvalid();
}
