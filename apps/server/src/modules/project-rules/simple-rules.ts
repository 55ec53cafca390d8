/**
 * Simple rules (spec §7 rules "simples list, add, update, delete"): one telemetry threshold each, at most
 * SIMPLE_RULES_MAX per project, names unique per project. The telemetry key must be one of the project's sensors and
 * the slot within its values per point; the operator, threshold and value must fit the key's value type
 * (simpleRuleProblem, docs/decisions/rules.md "Keys that are not numbers").
 */
import { and, asc, count, eq } from 'drizzle-orm';
import {
  RuleErrorCode,
  SIMPLE_RULES_MAX,
  simpleRuleProblem,
  TELEMETRY_SLOTS,
  type TSimpleRuleTest,
  type TListQuery,
  type TSimpleRule,
  type TSimpleRuleInput,
  type TSimpleRuleList,
  type TSimpleRuleUpdate,
  valueTestAfter,
} from '@tessera/contracts';
import { pageOf } from '../../db/paging.js';
import type { Db } from '../../db/client.js';
import { AppError, badRequest, conflict, notFound } from '../../core/errors.js';
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
 * @throws AppError 404 (project), 400 (key not a sensor, slot past its values; RULE_OP_MISMATCH: op, threshold, value
 *   or duration not fitting the key's value type), 409 (name taken, limit reached).
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
      await assertFitsSensor(tx, projectId, input);
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
  const test = testFields(input, rule);
  if (Object.keys(test).some((f) => input[f as keyof TSimpleRuleUpdate] !== undefined)) await assertFitsSensor(db, projectId, test);
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

/** The fields of the rule after `input` is applied to `rule`, that must fit the key together. */
function testFields(input: TSimpleRuleUpdate, rule: TSimpleRuleRow): TSimpleRuleTest {
  return { ...valueTestAfter(input, rule), duration_s: input.duration_s ?? rule.durationS };
}

/**
 * @throws AppError 400 when `key` is not a sensor of the project or `slot` is past its values per point, and 400
 *   RULE_OP_MISMATCH (the message starts with the field's name, `details` names it) when the operator, threshold,
 *   value or duration does not fit the key's value type.
 */
async function assertFitsSensor(db: Db, projectId: number, rule: TSimpleRuleTest): Promise<void> {
  const [sensor] = await db
    .select({ valueCount: projectSensors.valueCount, valueType: projectSensors.valueType })
    .from(projectSensors)
    .where(and(eq(projectSensors.projectId, projectId), eq(projectSensors.key, rule.key)));
  if (!sensor) throw badRequest(`"${rule.key}" is not a telemetry key of this project`);
  if (TELEMETRY_SLOTS.indexOf(rule.slot) >= sensor.valueCount)
    throw badRequest(`${rule.key} carries ${sensor.valueCount} value(s); ${rule.slot} does not exist`);
  const problem = simpleRuleProblem(sensor.valueType, rule);
  if (problem)
    throw new AppError(400, RuleErrorCode.OpMismatch, `${problem.field}: ${problem.message}`, [
      { path: problem.field, message: problem.message },
    ]);
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
    value: input.value,
    durationS: input.duration_s,
    level: input.level,
    message: input.message,
    notifyEmail: input.notify_email,
    notifyLine: input.notify_line,
  };
}
