/**
 * App rules (device detail tab app-rules, spec §7 devices `userRules`; docs/decisions/device-control.md): a user's
 * own "notify me when key.slot op threshold" rules per device — or, on a key whose values are not numbers, "when key
 * equals / contains value, or changed" (userRuleProblem, docs/decisions/rules.md "Keys that are not numbers") — at
 * most USER_RULES_MAX per account and device. Users list, add, edit and delete their own; a vendor lists every
 * user's rules of its device, read-only.
 */
import { and, asc, count, eq, sql } from 'drizzle-orm';
import {
  RuleErrorCode,
  type TListQuery,
  type TPage,
  type TUserRule,
  type TUserRuleTest,
  type TUserRuleUpdate,
  USER_RULES_MAX,
  USER_RULE_SLOTS,
  userRuleProblem,
  valueTestAfter,
  type ZUserRuleInput,
} from '@tessera/contracts';
import type { z } from 'zod';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { pageOf } from '../../db/paging.js';
import type { Db } from '../../db/client.js';
import { accounts, deviceUserRules, devices, projectSensors } from '../../db/schema.js';
import type { TDeviceRow } from '../devices/access.js';
import type { TRuleChanges } from '../../core/context.js';

type TRuleRow = typeof deviceUserRules.$inferSelect;
type TRuleFields = z.output<typeof ZUserRuleInput>;

/** A rule row with its owner's email → ZUserRule. */
function presentRule(row: TRuleRow, email: string, tangramId: string): TUserRule {
  return {
    id: row.id,
    tangram_id: tangramId,
    account_id: row.accountId,
    account_email: email,
    name: row.name,
    key: row.key,
    slot: row.slot,
    op: row.op,
    threshold: row.threshold,
    value: row.value,
    level: row.level,
    enabled: row.enabled,
    cooldown_s: row.cooldownS,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** App rules belong to the app's user: vendors read them only. @throws AppError 403 for a vendor or admin. */
function assertRuleOwnerLevel(principal: TPrincipal): void {
  if (principal.level !== 'user') throw forbidden('app rules are set by the device’s users; vendors see them read-only');
}

/**
 * @throws AppError 400 when `key` is not a sensor of the device's project or `slot` is past its value count, and 400
 *   RULE_OP_MISMATCH (the message starts with the field's name, `details` names it) when the operator, threshold or
 *   value does not fit the key's value type.
 */
async function assertFitsSensor(db: Db, device: TDeviceRow, rule: TUserRuleTest): Promise<void> {
  const { key, slot } = rule;
  const [sensor] = await db
    .select({ valueCount: projectSensors.valueCount, valueType: projectSensors.valueType })
    .from(projectSensors)
    .where(and(eq(projectSensors.projectId, device.projectId), eq(projectSensors.key, key)));
  if (!sensor) throw badRequest(`${key} is not a sensor of this device's project`);
  if (USER_RULE_SLOTS.indexOf(slot) >= sensor.valueCount) throw badRequest(`${key} has ${sensor.valueCount} value(s); ${slot} is not one`);
  const problem = userRuleProblem(sensor.valueType, rule);
  if (problem)
    throw new AppError(400, RuleErrorCode.OpMismatch, `${problem.field}: ${problem.message}`, [
      { path: problem.field, message: problem.message },
    ]);
}

/** The fields of the rule after `input` is applied to `rule`, that must fit the key together. */
function testFields(input: TUserRuleUpdate, rule: TRuleRow): TUserRuleTest {
  return valueTestAfter(input, rule);
}

/** A page of the device's rules: the caller's own (a user) or every user's (a vendor), oldest first. */
export async function listUserRules(db: Db, principal: TPrincipal, device: TDeviceRow, query: TListQuery): Promise<TPage<TUserRule>> {
  const where = and(
    eq(deviceUserRules.deviceId, device.id),
    principal.level === 'user' ? eq(deviceUserRules.accountId, principal.accountId) : undefined,
  );
  return pageOf(
    query,
    db.select({ total: count() }).from(deviceUserRules).where(where),
    (limit, offset) =>
      db
        .select({ rule: deviceUserRules, email: accounts.email })
        .from(deviceUserRules)
        .innerJoin(accounts, eq(accounts.id, deviceUserRules.accountId))
        .where(where)
        .orderBy(asc(deviceUserRules.id))
        .limit(limit)
        .offset(offset),
    (r) => presentRule(r.rule, r.email, device.tangramId),
  );
}

/**
 * Adds a rule of the calling user. The device row is locked while counting, so concurrent adds cannot pass
 * USER_RULES_MAX. @throws AppError 403 (vendor), 400 (key/slot; RULE_OP_MISMATCH: op, threshold or value not fitting
 * the key's value type), 409 (USER_RULES_MAX reached).
 */
export async function createUserRule(
  db: Db,
  changes: TRuleChanges,
  principal: TPrincipal,
  device: TDeviceRow,
  input: TRuleFields,
): Promise<TUserRule> {
  assertRuleOwnerLevel(principal);
  await assertFitsSensor(db, device, input);
  const row = await db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from ${devices} where ${devices.id} = ${device.id} for update`);
    const [{ n }] = await tx
      .select({ n: count() })
      .from(deviceUserRules)
      .where(and(eq(deviceUserRules.deviceId, device.id), eq(deviceUserRules.accountId, principal.accountId)));
    if (n >= USER_RULES_MAX) throw conflict(`at most ${USER_RULES_MAX} app rules per device`);
    const [created] = await tx
      .insert(deviceUserRules)
      .values({
        tenantId: device.tenantId,
        deviceId: device.id,
        accountId: principal.accountId,
        ...ruleColumns(input),
      })
      .returning();
    return created;
  });
  changes.projectChanged(device.projectId);
  return presentRule(row, principal.email, device.tangramId);
}

/** A rule's API fields → its columns, stamped now; a field the input leaves out stays undefined (not set). */
function ruleColumns<T extends TUserRuleUpdate>(
  input: T,
): Pick<T, 'name' | 'key' | 'slot' | 'op' | 'threshold' | 'value' | 'level' | 'enabled'> & {
  cooldownS: T['cooldown_s'];
  updatedAt: number;
} {
  const { name, key, slot, op, threshold, value, level, enabled, cooldown_s } = input;
  return { name, key, slot, op, threshold, value, level, enabled, cooldownS: cooldown_s, updatedAt: Date.now() };
}

/** The caller's rule `id` of the device. @throws AppError 404 when it is not the caller's (or not this device's). */
async function ownRule(db: Db, principal: TPrincipal, device: TDeviceRow, id: number): Promise<TRuleRow> {
  const [row] = await db
    .select()
    .from(deviceUserRules)
    .where(and(eq(deviceUserRules.id, id), eq(deviceUserRules.deviceId, device.id), eq(deviceUserRules.accountId, principal.accountId)));
  if (!row) throw notFound('app rule');
  return row;
}

/**
 * Changes any subset of a rule's fields; the key, slot, operator, threshold and value are checked as the rule would
 * become. @throws AppError 403 (vendor), 404 (not the caller's), 400 as for a new rule.
 */
export async function updateUserRule(
  db: Db,
  changes: TRuleChanges,
  principal: TPrincipal,
  device: TDeviceRow,
  id: number,
  input: TUserRuleUpdate,
): Promise<TUserRule> {
  assertRuleOwnerLevel(principal);
  const current = await ownRule(db, principal, device, id);
  const test = testFields(input, current);
  if (Object.keys(test).some((f) => input[f as keyof TUserRuleUpdate] !== undefined)) await assertFitsSensor(db, device, test);
  const [row] = await db.update(deviceUserRules).set(ruleColumns(input)).where(eq(deviceUserRules.id, current.id)).returning();
  changes.projectChanged(device.projectId);
  return presentRule(row, principal.email, device.tangramId);
}

/** Deletes a rule of the caller. @throws AppError 403 (vendor), 404 (not the caller's). */
export async function deleteUserRule(db: Db, changes: TRuleChanges, principal: TPrincipal, device: TDeviceRow, id: number): Promise<void> {
  assertRuleOwnerLevel(principal);
  const rule = await ownRule(db, principal, device, id);
  await db.delete(deviceUserRules).where(eq(deviceUserRules.id, rule.id));
  changes.projectChanged(device.projectId);
}
