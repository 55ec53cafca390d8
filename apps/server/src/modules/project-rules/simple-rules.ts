/**
 * Simple rules (spec §7 rules "simples list, add, update, delete"): one telemetry threshold each, at most
 * SIMPLE_RULES_MAX per project, names unique per project. The telemetry key must be one of the project's sensors and
 * the slot within its values per point.
 */
import { and, asc, count, eq } from 'drizzle-orm';
import {
  RuleErrorCode,
  SIMPLE_RULES_MAX,
  TELEMETRY_SLOTS,
  type TListQuery,
  type TSimpleRule,
  type TSimpleRuleInput,
  type TSimpleRuleList,
  type TSimpleRuleUpdate,
} from '@tessera/contracts';
import { pageOf } from '../../db/paging.js';
import type { Db } from '../../db/client.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { projectSensors, projectSimpleRules } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/sql-helpers.js';
import { ownedProject } from './ownership.js';
import { presentSimpleRule, type TSimpleRuleRow } from './presenters.js';
import type { TRuleChanges } from '../../core/context.js';

const nameTaken = (name: string) => conflict(`a simple rule named "${name}" already exists in this project`, RuleErrorCode.NameTaken);

/** GET simples: a page of the project's simple rules, oldest first. @throws AppError 404 (project). */
export async function listSimpleRules(db: Db, tenantId: number, projectId: number, query: TListQuery): Promise<TSimpleRuleList> {
  await ownedProject(db, tenantId, projectId);
  const where = eq(projectSimpleRules.projectId, projectId);
  return pageOf(
    query,
    db.select({ total: count() }).from(projectSimpleRules).where(where),
    (limit, offset) => db.select().from(projectSimpleRules).where(where).orderBy(asc(projectSimpleRules.id)).limit(limit).offset(offset),
    presentSimpleRule,
  );
}

/**
 * POST simples.
 * @throws AppError 404 (project), 400 (key not a sensor, slot past its values), 409 (name taken, limit reached).
 */
export async function createSimpleRule(
  db: Db,
  changes: TRuleChanges,
  tenantId: number,
  projectId: number,
  input: TSimpleRuleInput,
): Promise<TSimpleRule> {
  try {
    const rule = await db.transaction(async (tx) => {
      await ownedProject(tx, tenantId, projectId, true);
      await assertSensorSlot(tx, projectId, input.key, input.slot);
      const [{ n }] = await tx.select({ n: count() }).from(projectSimpleRules).where(eq(projectSimpleRules.projectId, projectId));
      if (n >= SIMPLE_RULES_MAX) throw conflict(`a project has at most ${SIMPLE_RULES_MAX} simple rules`, RuleErrorCode.LimitReached);
      const now = Date.now();
      const [row] = await tx
        .insert(projectSimpleRules)
        .values({ projectId, ...toColumns(input), createdAt: now, updatedAt: now })
        .returning();
      return presentSimpleRule(row);
    });
    changes.projectChanged(projectId);
    return rule;
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(input.name);
    throw err;
  }
}

/** PUT simples/{ruleId}: changes the given fields. @throws AppError 404 (project or rule), 400 and 409 as POST. */
export async function updateSimpleRule(
  db: Db,
  changes: TRuleChanges,
  tenantId: number,
  projectId: number,
  ruleId: number,
  input: TSimpleRuleUpdate,
): Promise<TSimpleRule> {
  await ownedProject(db, tenantId, projectId);
  const rule = await ownedRule(db, projectId, ruleId);
  if (input.key !== undefined || input.slot !== undefined) {
    await assertSensorSlot(db, projectId, input.key ?? rule.key, input.slot ?? rule.slot);
  }
  try {
    const [row] = await db
      .update(projectSimpleRules)
      .set({ ...toColumns(input), updatedAt: Date.now() })
      .where(eq(projectSimpleRules.id, rule.id))
      .returning();
    changes.projectChanged(projectId);
    return presentSimpleRule(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(input.name ?? rule.name);
    throw err;
  }
}

/** DELETE simples/{ruleId}. @throws AppError 404 (project or rule). */
export async function deleteSimpleRule(db: Db, changes: TRuleChanges, tenantId: number, projectId: number, ruleId: number): Promise<void> {
  await ownedProject(db, tenantId, projectId);
  const rule = await ownedRule(db, projectId, ruleId);
  await db.delete(projectSimpleRules).where(eq(projectSimpleRules.id, rule.id));
  changes.projectChanged(projectId);
}

async function ownedRule(db: Db, projectId: number, ruleId: number): Promise<TSimpleRuleRow> {
  const [row] = await db
    .select()
    .from(projectSimpleRules)
    .where(and(eq(projectSimpleRules.id, ruleId), eq(projectSimpleRules.projectId, projectId)));
  if (!row) throw notFound('simple rule');
  return row;
}

/** @throws AppError 400 when `key` is not a sensor of the project or `slot` is past its values per point. */
async function assertSensorSlot(db: Db, projectId: number, key: string, slot: (typeof TELEMETRY_SLOTS)[number]): Promise<void> {
  const [sensor] = await db
    .select({ valueCount: projectSensors.valueCount })
    .from(projectSensors)
    .where(and(eq(projectSensors.projectId, projectId), eq(projectSensors.key, key)));
  if (!sensor) throw badRequest(`"${key}" is not a telemetry key of this project`);
  if (TELEMETRY_SLOTS.indexOf(slot) >= sensor.valueCount)
    throw badRequest(`${key} carries ${sensor.valueCount} value(s); ${slot} does not exist`);
}

type TRuleColumns = Omit<typeof projectSimpleRules.$inferInsert, 'id' | 'projectId' | 'createdAt' | 'updatedAt'>;

/** Column values of the API fields (undefined ones are left alone by an update). */
function toColumns(input: TSimpleRuleInput): TRuleColumns;
function toColumns(input: TSimpleRuleUpdate): Partial<TRuleColumns>;
function toColumns(input: TSimpleRuleUpdate): Partial<TRuleColumns> {
  return {
    name: input.name,
    enabled: input.enabled,
    key: input.key,
    slot: input.slot,
    op: input.op,
    threshold: input.threshold,
    durationS: input.duration_s,
    level: input.level,
    message: input.message,
    notifyEmail: input.notify_email,
    notifyLine: input.notify_line,
  };
}
