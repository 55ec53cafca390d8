/**
 * View tokens of custom pages: an iframe cannot send the bearer header, so the page URL carries a short-lived HS256
 * JWT (jose) naming the viewer, the project and the page revision, plus the console origin allowed to frame it.
 * Its key is not the access-token key (a `settings` row of its own, shared by replicas), so a view token is never
 * a bearer token and a bearer token never opens a page.
 */
import { errors, jwtVerify, SignJWT } from 'jose';
import { CUSTOM_PAGE_VIEW_TTL_S } from '@tessera/contracts';
import { z } from 'zod';
import { purposeKey } from '../../core/purpose-key.js';
import type { Db } from '../../db/client.js';

const AUDIENCE = 'tessera:custom-page';
const SETTING_KEY = 'custom_page_view_secret';

/** What a view token grants: `accountId` may view revision `revision` of project `projectId`'s page, framed by `frameAncestor`. */
export interface TViewGrant {
  accountId: number;
  tenantId: number;
  projectId: number;
  /** The first 16 hex digits of the page's SHA-256. */
  revision: string;
  /** The console origin (scheme://host[:port]) the URL was issued to. */
  frameAncestor: string;
}

const ZClaims = z.object({
  sub: z.string().regex(/^\d+$/),
  tid: z.number().int(),
  pid: z.number().int(),
  rev: z.string().regex(/^[0-9a-f]{16}$/),
  anc: z.string(),
});

/** Why a token was refused. */
export type TViewRefusal = 'expired' | 'invalid';

const keyOf = (db: Db) => purposeKey(db, SETTING_KEY);

/** Signs a view token for `grant`, valid `ttlS` seconds (default {@link CUSTOM_PAGE_VIEW_TTL_S}); answers it and its expiry (epoch ms). */
export async function signViewToken(
  db: Db,
  grant: TViewGrant,
  ttlS = CUSTOM_PAGE_VIEW_TTL_S,
): Promise<{ token: string; expiresAt: number }> {
  const exp = Math.floor(Date.now() / 1000) + ttlS;
  const token = await new SignJWT({ tid: grant.tenantId, pid: grant.projectId, rev: grant.revision, anc: grant.frameAncestor })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(grant.accountId))
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(await keyOf(db));
  return { token, expiresAt: exp * 1000 };
}

/** Verifies `token`; answers its grant or why it was refused. Never throws. */
export async function verifyViewToken(
  db: Db,
  token: string,
): Promise<{ ok: true; grant: TViewGrant } | { ok: false; reason: TViewRefusal }> {
  try {
    const { payload } = await jwtVerify(token, await keyOf(db), { algorithms: ['HS256'], audience: AUDIENCE });
    const claims = ZClaims.safeParse(payload);
    if (!claims.success) return { ok: false, reason: 'invalid' };
    const c = claims.data;
    return { ok: true, grant: { accountId: Number(c.sub), tenantId: c.tid, projectId: c.pid, revision: c.rev, frameAncestor: c.anc } };
  } catch (err) {
    return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}
