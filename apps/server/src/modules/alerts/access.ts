/**
 * Who sees which alert (docs/decisions/alerts.md "Who sees which alert"): an alert of a project rule is seen by every
 * account that may see its device (devices/access.ts: vendors and admins of the tenant, users through `device_authz`
 * or a project role with `receive_alerts`); an alert of a user's app rule only by that rule's owner, while it may see the device.
 * {@link visibleAlertsCondition} filters lists; {@link alertAudience} is its inverse, for the live channel.
 */
import { and, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { accounts, alerts, deviceAuthz, deviceUserRules } from '../../db/schema.js';
import { directlyAuthorisedIds } from '../devices/access.js';
import { roleGrantedDeviceIds, roleMemberIdsOf } from '../project-roles/grants.js';

/** A join-free WHERE clause over `alerts`: the alerts `principal` may see (tenant always applied). */
export function visibleAlertsCondition(principal: TPrincipal): SQL {
  const ownAppRules = sql`select ${deviceUserRules.id} from ${deviceUserRules} where ${deviceUserRules.accountId} = ${principal.accountId}`;
  const ruleVisible = or(ne(alerts.ruleKind, 'app'), sql`${alerts.ruleId} in (${ownAppRules})`)!;
  const ofTenant = eq(alerts.tenantId, principal.tenantId);
  if (principal.level !== 'user') return and(ofTenant, ruleVisible)!;
  const granted = sql`${directlyAuthorisedIds(principal.accountId)} union ${roleGrantedDeviceIds(principal.accountId, 'receive_alerts')}`;
  const deviceVisible = sql`${alerts.deviceId} in (${granted})`;
  return and(ofTenant, deviceVisible, ruleVisible)!;
}

/** What {@link alertAudience} needs of an alert. */
export interface TAlertAudienceKey {
  tenantId: number;
  deviceId: number;
  ruleKind: 'simple' | 'program' | 'app';
  ruleId: number;
}

/**
 * The ids of every account that may see the alert, in one query: accounts of the alert's tenant that are vendors or
 * admins, or users holding the device through `device_authz` or a project role; for an app-rule alert, only the
 * rule's owner among those.
 */
export async function alertAudience(db: Db, key: TAlertAudienceKey): Promise<number[]> {
  const grantedUsers = sql`select ${deviceAuthz.accountId} from ${deviceAuthz} where ${deviceAuthz.deviceId} = ${key.deviceId}
    union ${roleMemberIdsOf(key.deviceId, 'receive_alerts')}`;
  const seesDevice = or(inArray(accounts.level, ['vendor', 'admin']), sql`${accounts.id} in (${grantedUsers})`)!;
  const ruleOwner = sql`${accounts.id} in (select ${deviceUserRules.accountId} from ${deviceUserRules} where ${deviceUserRules.id} = ${key.ruleId})`;
  const rows = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.tenantId, key.tenantId), seesDevice, key.ruleKind === 'app' ? ruleOwner : undefined));
  return rows.map((r) => r.id);
}
