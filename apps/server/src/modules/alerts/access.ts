/**
 * Who sees which alert (docs/decisions/alerts.md "Who sees which alert"): an alert of a project rule is seen by every
 * account that may see its device (devices/access.ts: vendors and admins of the tenant, users through `device_authz`
 * or a project role with `receive_alerts`); an alert of a user's app rule only by that rule's owner, while it may see the device.
 * {@link visibleAlertsCondition} filters lists; {@link alertAudience} is its inverse, for the live channel.
 */
import type { TAlertRuleKind } from '@tessera/contracts';
import { and, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import type { TPrincipal } from '../../core/principal.js';
import { rowsOf, type Db } from '../../db/client.js';
import { accounts, alerts, deviceUserRules } from '../../db/schema.js';
import { directGrantHolderIds, directlyAuthorisedIds } from '../devices/access.js';
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
  ruleKind: TAlertRuleKind;
  ruleId: number;
}

/**
 * The ids of every account that may see each alert of `keys`, in one query: accounts of the alert's tenant that are
 * vendors or admins, or users holding the device directly (`device_authz`, `project_authz`) or through a project role with `receive_alerts`;
 * for an app-rule alert, only the rule's owner among those. Answers one list per key, in order.
 */
export async function alertAudiences(db: Db, keys: readonly TAlertAudienceKey[]): Promise<number[][]> {
  if (keys.length === 0) return [];
  const wanted = JSON.stringify(
    keys.map((k, i) => ({ i, tenant_id: k.tenantId, device_id: k.deviceId, rule_kind: k.ruleKind, rule_id: k.ruleId })),
  );
  const deviceId = sql.raw('k.device_id');
  const grantedUsers = sql`${directGrantHolderIds(deviceId)} union ${roleMemberIdsOf(deviceId, 'receive_alerts')}`;
  const rows = rowsOf<{ i: number; id: number }>(
    await db.execute(sql`
      select k.i, ${accounts.id} as id
      from jsonb_to_recordset(${wanted}::jsonb) as k(i int, tenant_id int, device_id int, rule_kind text, rule_id int)
      join ${accounts} on ${accounts.tenantId} = k.tenant_id
      where (${accounts.level} in ('vendor', 'admin') or ${accounts.id} in (${grantedUsers}))
        and (k.rule_kind <> 'app'
             or ${accounts.id} in (select ${deviceUserRules.accountId} from ${deviceUserRules} where ${deviceUserRules.id} = k.rule_id))
      order by k.i, ${accounts.id}`),
  );
  const out = keys.map((): number[] => []);
  for (const r of rows) out[Number(r.i)]?.push(Number(r.id));
  return out;
}

/** {@link alertAudiences} of one alert. */
export async function alertAudience(db: Db, key: TAlertAudienceKey): Promise<number[]> {
  const [ids] = await alertAudiences(db, [key]);
  return ids ?? [];
}
