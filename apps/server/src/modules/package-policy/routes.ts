/**
 * `GET /frontstage/user/v1/authz/package-policy` (spec §7 User API): the caller's tenant's plan, what it allows and
 * how much is used — the console hides what the plan excludes. Any logged-in account of the tenant.
 */
import { ZPackagePolicy } from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireAuth } from '../../core/principal.js';
import { packagePolicyOf } from './policy.js';

/** Registers the package-policy route (prefix `/frontstage/user/v1`). */
export async function packagePolicyRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  app.get(
    '/authz/package-policy',
    { preHandler: requireAuth, schema: { tags: ['package-policy'], response: { 200: ZPackagePolicy } } },
    (req) => packagePolicyOf(ctx.db, principalOf(req)),
  );
}
