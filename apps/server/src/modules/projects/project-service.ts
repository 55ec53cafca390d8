/**
 * Writing projects (spec §7 projects: create, copy, update, delete, ruleType). A project is a product of the tenant
 * plus a hardware module; on create it gets a copy of the module's template sensors (its telemetry keys).
 */
import { and, count, eq, inArray } from 'drizzle-orm';
import {
  ErrorCode,
  type TProject,
  type TProjectCopy,
  type TProjectCreate,
  type TProjectUpdate,
  type TRuleTypeUpdate,
} from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { conflict, notFound } from '../../core/errors.js';
import {
  customPages,
  devices,
  products,
  projectBlocklyPrograms,
  projectBlocklySettings,
  projectSensors,
  projectSimpleRules,
  projects,
  sensorDisplay,
  tangramProducts,
  templateSensors,
} from '../../db/schema.js';
import { getProject } from './project-queries.js';
import type { TRuleChanges } from '../../core/context.js';

/**
 * Creates a project and copies its module's template sensors into project_sensors, in one transaction.
 * @throws AppError 404 when the product is not the tenant's or the hardware module does not exist.
 */
export async function createProject(db: Db, tenantId: number, input: TProjectCreate): Promise<TProject> {
  const id = await db.transaction(async (tx) => {
    const [product] = await tx
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.id, input.product_id), eq(products.tenantId, tenantId)));
    if (!product) throw notFound('product');
    const [module] = await tx
      .select({ id: tangramProducts.id })
      .from(tangramProducts)
      .where(eq(tangramProducts.id, input.tangram_product_id));
    if (!module) throw notFound('hardware module');
    const [row] = await tx
      .insert(projects)
      .values({
        tenantId,
        productId: product.id,
        tangramProductId: module.id,
        name: input.name,
        description: input.description ?? '',
        deviceAuthzMethod: input.device_authz_method,
      })
      .returning({ id: projects.id });
    const sensors = await tx.select().from(templateSensors).where(eq(templateSensors.tangramProductId, module.id));
    if (sensors.length) {
      await tx
        .insert(projectSensors)
        .values(sensors.map((s) => ({ projectId: row.id, key: s.key, name: s.name, unit: s.unit, valueCount: s.valueCount })));
    }
    return row.id;
  });
  return getProject(db, tenantId, id);
}

/**
 * Copies project `input.id` under a new name: settings, status groups and sensors; not its devices.
 * @throws AppError 404 when the source is not the tenant's.
 */
export async function copyProject(db: Db, tenantId: number, input: TProjectCopy): Promise<TProject> {
  const id = await db.transaction(async (tx) => {
    const [src] = await tx
      .select()
      .from(projects)
      .where(and(eq(projects.id, input.id), eq(projects.tenantId, tenantId)));
    if (!src) throw notFound('project');
    const { id: _id, createdAt: _createdAt, ...settings } = src;
    const [row] = await tx
      .insert(projects)
      .values({ ...settings, name: input.name })
      .returning({ id: projects.id });
    await copyConfiguration(tx as unknown as Db, src.id, row.id);
    return row.id;
  });
  return getProject(db, tenantId, id);
}

/**
 * Copies a project's configuration to `toId` (docs/decisions/project-settings.md "copy"): sensors with their display
 * settings, simple rules, Blockly programs, the blockly setting and the custom page. Devices, roles and the
 * notification list stay with the original: they name real things and people.
 */
async function copyConfiguration(tx: Db, fromId: number, toId: number): Promise<void> {
  const sensors = await tx.select().from(projectSensors).where(eq(projectSensors.projectId, fromId));
  if (sensors.length) {
    const copies = await tx
      .insert(projectSensors)
      .values(sensors.map(({ id: _id, ...s }) => ({ ...s, projectId: toId })))
      .returning({ id: projectSensors.id, key: projectSensors.key });
    const newIdByKey = new Map(copies.map((c) => [c.key, c.id]));
    const keyById = new Map(sensors.map((s) => [s.id, s.key]));
    const displays = await tx
      .select()
      .from(sensorDisplay)
      .where(
        inArray(
          sensorDisplay.sensorId,
          sensors.map((s) => s.id),
        ),
      );
    if (displays.length) {
      await tx.insert(sensorDisplay).values(displays.map((d) => ({ ...d, sensorId: newIdByKey.get(keyById.get(d.sensorId) ?? '') ?? 0 })));
    }
  }
  const simple = await tx.select().from(projectSimpleRules).where(eq(projectSimpleRules.projectId, fromId));
  if (simple.length) await tx.insert(projectSimpleRules).values(simple.map(({ id: _id, ...r }) => ({ ...r, projectId: toId })));
  const programs = await tx.select().from(projectBlocklyPrograms).where(eq(projectBlocklyPrograms.projectId, fromId));
  if (programs.length) await tx.insert(projectBlocklyPrograms).values(programs.map(({ id: _id, ...p }) => ({ ...p, projectId: toId })));
  const [setting] = await tx.select().from(projectBlocklySettings).where(eq(projectBlocklySettings.projectId, fromId));
  if (setting) await tx.insert(projectBlocklySettings).values({ ...setting, projectId: toId });
  const [page] = await tx.select().from(customPages).where(eq(customPages.projectId, fromId));
  if (page) await tx.insert(customPages).values({ ...page, projectId: toId });
}

/** Updates name, description, device_authz_method and/or status_groups. @throws AppError 404 when not the tenant's. */
export async function updateProject(db: Db, tenantId: number, id: number, input: TProjectUpdate): Promise<TProject> {
  const set = {
    name: input.name,
    description: input.description,
    deviceAuthzMethod: input.device_authz_method,
    statusGroups: input.status_groups,
  };
  if (Object.values(set).some((v) => v !== undefined)) {
    await db
      .update(projects)
      .set(set)
      .where(and(eq(projects.id, id), eq(projects.tenantId, tenantId)));
  }
  return getProject(db, tenantId, id);
}

/**
 * Sets the project's rule type (§4: level or edge trigger) and, when given, its level-trigger re-notify interval.
 * @throws AppError 404 when not the tenant's.
 */
export async function setRuleType(db: Db, changes: TRuleChanges, tenantId: number, id: number, input: TRuleTypeUpdate): Promise<TProject> {
  await db
    .update(projects)
    .set({ ruleType: input.rule_type, ruleRenotifyS: input.renotify_interval_s })
    .where(and(eq(projects.id, id), eq(projects.tenantId, tenantId)));
  const project = await getProject(db, tenantId, id);
  changes.projectChanged(id);
  return project;
}

/**
 * Deletes a project and its sensors.
 * @throws AppError 404 when not the tenant's; 409 IN_USE while it has devices (they carry its identity).
 */
export async function deleteProject(db: Db, tenantId: number, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: projects.id })
      .from(projects)
      .where(and(eq(projects.id, id), eq(projects.tenantId, tenantId)))
      .for('update');
    if (!row) throw notFound('project');
    const [{ n }] = await tx.select({ n: count() }).from(devices).where(eq(devices.projectId, id));
    if (n > 0) throw conflict(`the project has ${n} device(s)`, ErrorCode.InUse);
    await tx.delete(projects).where(eq(projects.id, id));
  });
}
