/** Response shapes of the auth module (never a database row): profile, API key, admin account summary. */
import type { TAccountSummary, TApiKey, TProfile } from '@tessera/contracts';
import type { accounts, apiKeys } from '../../db/schema.js';

type TAccountRow = typeof accounts.$inferSelect;
type TApiKeyRow = typeof apiKeys.$inferSelect;

/** GET/PUT profile (ZProfile). */
export function presentProfile(a: TAccountRow, tenantName: string): TProfile {
  return {
    id: a.id,
    email: a.email,
    name: a.name,
    level: a.level,
    tenant_id: a.tenantId,
    tenant_name: tenantName,
    language: a.language,
    fea: a.features,
    created_at: a.createdAt,
  };
}

/** An API key as listed (ZApiKey): the prefix, never the secret or its hash. */
export function presentApiKey(k: TApiKeyRow): TApiKey {
  return { id: k.id, name: k.name, prefix: k.prefix, expires_at: k.expiresAt, created_at: k.createdAt, revoked: k.revokedAt !== null };
}

/** One row of the admin account list (ZAccountSummary); `now` decides whether a lock is still on. */
export function presentAccountSummary(a: TAccountRow, tenantName: string, now: number): TAccountSummary {
  return {
    id: a.id,
    email: a.email,
    name: a.name,
    level: a.level,
    tenant_id: a.tenantId,
    tenant_name: tenantName,
    locked: a.lockedUntil !== null && a.lockedUntil > now,
    created_at: a.createdAt,
  };
}
