/**
 * The project's blockly setting (spec §3 "Blockly setting: properties, a list of items each with a numeric value";
 * §7 "blockly setting GET and PUT"). Rules read a property by name when they run (docs/decisions/rules.md).
 */
import { eq } from 'drizzle-orm';
import type { TBlocklyProperty, TBlocklySetting } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { projectBlocklySettings } from '../../db/schema.js';
import { ownedProject } from './ownership.js';
import type { TRuleChanges } from '../../core/context.js';

/** The properties of a project already checked to be the caller's; empty when never saved. */
export async function readProperties(db: Db, projectId: number): Promise<TBlocklyProperty[]> {
  const [row] = await db
    .select({ properties: projectBlocklySettings.properties })
    .from(projectBlocklySettings)
    .where(eq(projectBlocklySettings.projectId, projectId));
  return row?.properties ?? [];
}

/** GET blocklySetting. @throws AppError 404 when not the tenant's project. */
export async function getBlocklySetting(db: Db, tenantId: number, projectId: number): Promise<TBlocklySetting> {
  await ownedProject(db, tenantId, projectId);
  return { properties: await readProperties(db, projectId) };
}

/** PUT blocklySetting: replaces the list (validated by ZBlocklySetting). @throws AppError 404 as GET. */
export async function putBlocklySetting(
  db: Db,
  changes: TRuleChanges,
  tenantId: number,
  projectId: number,
  input: TBlocklySetting,
): Promise<TBlocklySetting> {
  await ownedProject(db, tenantId, projectId);
  const values = { projectId, properties: input.properties, updatedAt: Date.now() };
  await db
    .insert(projectBlocklySettings)
    .values(values)
    .onConflictDoUpdate({ target: projectBlocklySettings.projectId, set: { properties: values.properties, updatedAt: values.updatedAt } });
  changes.projectChanged(projectId);
  return { properties: await readProperties(db, projectId) };
}
