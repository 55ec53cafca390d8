/**
 * Platform telemetry CRUD and preview (its stored series: stored-points.ts) (spec §7 `/frontstage-pt/v1/platform-telemetry`;
 * docs/platform-telemetry.md). A tenant's own: every query is scoped by the caller's tenant, mounted devices must be
 * the tenant's, and a formula is compiled against the mounted devices' keys before anything is stored.
 */
import {
  ErrorCode,
  PLATFORM_TELEMETRY_MAX,
  ZFormulaPreviewInput,
  ZPlatformTelemetryInput,
  type TFormulaPreview,
  type TFormulaPreviewInput,
  type TListQuery,
  type TPlatformTelemetry,
  type TPlatformTelemetryInput,
  type TPlatformTelemetryPage,
} from '@tessera/contracts';
import { and, asc, count, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { AppError, conflict, notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { pageOf } from '../../db/paging.js';
import { devices, platformTelemetries, platformTelemetryDevices, projectSensors, telemetryLatest } from '../../db/schema.js';
import { isUniqueViolation, searchAny } from '../../db/sql-helpers.js';
import { visibleDevicesCondition } from '../devices/access.js';
import { FlowRunError } from '../evaluation/flows/expression.js';
import { compileFormula, FormulaError, type TCompiledFormula } from './formula.js';

type TRow = typeof platformTelemetries.$inferSelect;
/** A mounted device with what the formula may read of it. */
interface TMount {
  alias: string;
  deviceId: number;
  tangramId: string;
  name: string;
  keys: string[];
}

const own = (principal: TPrincipal) => eq(platformTelemetries.tenantId, principal.tenantId);

/** GET list: the tenant's platform telemetries, by name, searchable by name or formula. */
export async function listPlatformTelemetry(db: Db, principal: TPrincipal, q: TListQuery): Promise<TPlatformTelemetryPage> {
  const where = and(own(principal), searchAny(q.q, [platformTelemetries.name, platformTelemetries.formula]));
  const page = await pageOf(
    q,
    db.select({ total: count() }).from(platformTelemetries).where(where),
    (limit, offset) =>
      db
        .select()
        .from(platformTelemetries)
        .where(where)
        .orderBy(asc(platformTelemetries.name), asc(platformTelemetries.id))
        .limit(limit)
        .offset(offset),
    (row) => row,
  );
  const mounts = await mountsOf(
    db,
    page.data.map((r) => r.id),
  );
  return { ...page, data: page.data.map((r) => present(r, mounts.get(r.id) ?? [])) };
}

/** GET {id}. @throws AppError 404 for another tenant's or a missing one. */
export async function getPlatformTelemetry(db: Db, principal: TPrincipal, id: number): Promise<TPlatformTelemetry> {
  const row = await ownRow(db, principal, id);
  return present(row, (await mountsOf(db, [row.id])).get(row.id) ?? []);
}

/**
 * POST: checks the mounted devices and compiles the formula, then stores it.
 * @throws AppError 400 for a device that is not the tenant's (`devices.i.tangram_id`) or a bad formula (`formula`,
 *   with its `position`); 409 for a name in use or over PLATFORM_TELEMETRY_MAX per tenant.
 */
export async function createPlatformTelemetry(db: Db, principal: TPrincipal, input: TPlatformTelemetryInput): Promise<TPlatformTelemetry> {
  const v = ZPlatformTelemetryInput.parse(input);
  const { mounts, compiled } = await checkedMounts(db, principal, v);
  const [{ n }] = await db.select({ n: count() }).from(platformTelemetries).where(own(principal));
  if (n >= PLATFORM_TELEMETRY_MAX)
    throw conflict(`a tenant has at most ${PLATFORM_TELEMETRY_MAX} platform telemetries`, 'PLATFORM_TELEMETRY_LIMIT');
  const id = await uniqueName(v.name, () =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(platformTelemetries)
        .values({ tenantId: principal.tenantId, name: v.name, formula: v.formula, coefficient: v.coefficient, unit: v.unit })
        .returning({ id: platformTelemetries.id });
      await tx
        .insert(platformTelemetryDevices)
        .values(mounts.map((m, position) => ({ platformTelemetryId: row.id, alias: m.alias, deviceId: m.deviceId, position })));
      return row.id;
    }),
  );
  await evaluateSaved(db, id, compiled, mounts, v.coefficient);
  return getPlatformTelemetry(db, principal, id);
}

/**
 * PUT {id}: replaces name, formula, coefficient, unit and mounted devices. The stored series stays; the latest
 * value is the new formula's on the devices' latest values at once (see {@link evaluateSaved}).
 * @throws AppError 404 for another tenant's; 400 and 409 as {@link createPlatformTelemetry}.
 */
export async function updatePlatformTelemetry(
  db: Db,
  principal: TPrincipal,
  id: number,
  input: TPlatformTelemetryInput,
): Promise<TPlatformTelemetry> {
  await ownRow(db, principal, id);
  const v = ZPlatformTelemetryInput.parse(input);
  const { mounts, compiled } = await checkedMounts(db, principal, v);
  await uniqueName(v.name, () =>
    db.transaction(async (tx) => {
      await tx
        .update(platformTelemetries)
        .set({
          name: v.name,
          formula: v.formula,
          coefficient: v.coefficient,
          unit: v.unit,
          latestValue: null,
          latestTs: null,
          latestError: null,
          updatedAt: Date.now(),
        })
        .where(eq(platformTelemetries.id, id));
      await tx.delete(platformTelemetryDevices).where(eq(platformTelemetryDevices.platformTelemetryId, id));
      await tx
        .insert(platformTelemetryDevices)
        .values(mounts.map((m, position) => ({ platformTelemetryId: id, alias: m.alias, deviceId: m.deviceId, position })));
    }),
  );
  await evaluateSaved(db, id, compiled, mounts, v.coefficient);
  return getPlatformTelemetry(db, principal, id);
}

/**
 * The latest value of a platform telemetry just created or edited: its formula on the mounted devices' latest
 * values now, rather than only once one of them publishes again — until then the list said "—" while the editor's
 * preview (and, after an edit, the detail's chart of the kept series) showed a value (docs/platform-telemetry.md
 * "Why the list showed — "). An input without a value yet sets `latest_error` instead. Kept only if no newer value
 * was stored meanwhile (an evaluation of a batch that committed since); no point is added to the series, which
 * holds values evaluated as points arrive.
 */
async function evaluateSaved(
  db: Db,
  id: number,
  compiled: TCompiledFormula,
  mounts: readonly TMount[],
  coefficient: number,
): Promise<void> {
  const result = await evaluateOnLatest(db, compiled, mounts, coefficient);
  if (result.value === null || result.ts === null) {
    await db
      .update(platformTelemetries)
      .set({ latestError: (result.run_error ?? 'no value').slice(0, 500) })
      .where(and(eq(platformTelemetries.id, id), isNull(platformTelemetries.latestTs)));
    return;
  }
  await db
    .update(platformTelemetries)
    .set({ latestValue: result.value, latestTs: result.ts, latestError: null })
    .where(and(eq(platformTelemetries.id, id), or(isNull(platformTelemetries.latestTs), lte(platformTelemetries.latestTs, result.ts))));
}

/** DELETE {id}: with its mounts and series. @throws AppError 404 for another tenant's. */
export async function deletePlatformTelemetry(db: Db, principal: TPrincipal, id: number): Promise<void> {
  await ownRow(db, principal, id);
  await db.delete(platformTelemetries).where(eq(platformTelemetries.id, id));
}

/**
 * POST preview: the formula on the mounted devices' latest values, nothing stored. A formula that does not compile
 * answers its problem (with the position) rather than an error, so the editor can mark it as the vendor types.
 * @throws AppError 400 for a device that is not the tenant's.
 */
export async function previewFormula(db: Db, principal: TPrincipal, input: TFormulaPreviewInput): Promise<TFormulaPreview> {
  const v = ZFormulaPreviewInput.parse(input);
  const mounts = await tenantMounts(db, principal, v.devices);
  let compiled: TCompiledFormula;
  try {
    compiled = compileFormula(v.formula, mounts);
  } catch (err) {
    if (err instanceof FormulaError) return { value: null, ts: null, problem: err.problem, run_error: null };
    throw err;
  }
  return { ...(await evaluateOnLatest(db, compiled, mounts, v.coefficient)), problem: null };
}

/**
 * The formula on the latest values of what it reads: `{ value, ts }` (ts: the newest input's time), or the run
 * error (an input without a value yet, ÷ 0) with no value.
 */
export async function evaluateOnLatest(
  db: Db,
  compiled: TCompiledFormula,
  mounts: readonly { alias: string; deviceId: number }[],
  coefficient: number,
): Promise<{ value: number | null; ts: number | null; run_error: string | null }> {
  const byDevice = new Map(mounts.map((m) => [m.deviceId, m.alias]));
  const reads = [...compiled.reads].map((name) => name.split('.'));
  const keys = [...new Set(reads.map(([, ...key]) => key.join('.')))];
  const rows = mounts.length
    ? await db
        .select({ deviceId: telemetryLatest.deviceId, key: telemetryLatest.key, ts: telemetryLatest.ts, v1: telemetryLatest.v1 })
        .from(telemetryLatest)
        .where(
          and(
            inArray(
              telemetryLatest.deviceId,
              mounts.map((m) => m.deviceId),
            ),
            keys.length ? inArray(telemetryLatest.key, keys) : sql`false`,
          ),
        )
    : [];
  const values = new Map<string, number>();
  let ts: number | null = null;
  for (const r of rows) {
    const name = `${byDevice.get(r.deviceId)}.${r.key}`;
    if (!compiled.reads.has(name) || r.v1 === null) continue;
    values.set(name, r.v1);
    ts = Math.max(ts ?? 0, r.ts);
  }
  try {
    return { value: compiled.evaluate(values, coefficient), ts, run_error: null };
  } catch (err) {
    if (err instanceof FlowRunError) return { value: null, ts: null, run_error: err.message };
    throw err;
  }
}

/** The caller's platform telemetry `id`. @throws AppError 404 when it is not the caller tenant's. */
export async function ownRow(db: Db, principal: TPrincipal, id: number): Promise<TRow> {
  const [row] = await db
    .select()
    .from(platformTelemetries)
    .where(and(eq(platformTelemetries.id, id), own(principal)));
  if (!row) throw notFound('platform telemetry');
  return row;
}

function present(row: TRow, mounts: TMount[]): TPlatformTelemetry {
  return {
    id: row.id,
    name: row.name,
    formula: row.formula,
    coefficient: row.coefficient,
    unit: row.unit,
    devices: mounts.map((m) => ({ alias: m.alias, tangram_id: m.tangramId, name: m.name, keys: m.keys })),
    latest_value: row.latestValue,
    latest_ts: row.latestTs,
    latest_error: row.latestError,
    updated_at: row.updatedAt,
  };
}

/** The mounted devices of each of `ids`, in their order, with their projects' keys. */
export async function mountsOf(db: Db, ids: readonly number[]): Promise<Map<number, TMount[]>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      ptId: platformTelemetryDevices.platformTelemetryId,
      alias: platformTelemetryDevices.alias,
      deviceId: devices.id,
      tangramId: devices.tangramId,
      name: devices.name,
      projectId: devices.projectId,
    })
    .from(platformTelemetryDevices)
    .innerJoin(devices, eq(devices.id, platformTelemetryDevices.deviceId))
    .where(inArray(platformTelemetryDevices.platformTelemetryId, [...ids]))
    .orderBy(platformTelemetryDevices.platformTelemetryId, platformTelemetryDevices.position);
  const keys = await keysOfProjects(db, [...new Set(rows.map((r) => r.projectId))]);
  const out = new Map<number, TMount[]>();
  for (const r of rows) {
    const list = out.get(r.ptId) ?? [];
    list.push({ alias: r.alias, deviceId: r.deviceId, tangramId: r.tangramId, name: r.name, keys: keys.get(r.projectId) ?? [] });
    out.set(r.ptId, list);
  }
  return out;
}

async function keysOfProjects(db: Db, projectIds: number[]): Promise<Map<number, string[]>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db
    .select({ projectId: projectSensors.projectId, key: projectSensors.key })
    .from(projectSensors)
    .where(inArray(projectSensors.projectId, projectIds))
    .orderBy(projectSensors.projectId, projectSensors.key);
  const out = new Map<number, string[]>();
  for (const r of rows) out.set(r.projectId, [...(out.get(r.projectId) ?? []), r.key]);
  return out;
}

/**
 * The requested devices as mounts, each one of the tenant's.
 * @throws AppError 400 naming each device that is not (`devices.i.tangram_id`): a foreign and a missing one alike.
 */
async function tenantMounts(db: Db, principal: TPrincipal, list: readonly { alias: string; tangram_id: string }[]): Promise<TMount[]> {
  const ids = [...new Set(list.map((d) => d.tangram_id.toUpperCase()))];
  const found = await db
    .select({ id: devices.id, tangramId: devices.tangramId, name: devices.name, projectId: devices.projectId })
    .from(devices)
    .where(and(inArray(devices.tangramId, ids), visibleDevicesCondition(principal)));
  const byId = new Map(found.map((d) => [d.tangramId, d]));
  const problems = list.flatMap((d, i) =>
    byId.has(d.tangram_id.toUpperCase()) ? [] : [{ path: `devices.${i}.tangram_id`, message: `device ${d.tangram_id} not found` }],
  );
  if (problems.length) throw new AppError(400, ErrorCode.Validation, 'some devices are not yours', problems);
  const keys = await keysOfProjects(db, [...new Set(found.map((d) => d.projectId))]);
  return list.map((d) => {
    const device = byId.get(d.tangram_id.toUpperCase()) as (typeof found)[number];
    return { alias: d.alias, deviceId: device.id, tangramId: device.tangramId, name: device.name, keys: keys.get(device.projectId) ?? [] };
  });
}

/** {@link tenantMounts}, then the formula compiled over them. @throws AppError 400 FORMULA_INVALID with the position. */
async function checkedMounts(
  db: Db,
  principal: TPrincipal,
  v: { formula: string; devices: { alias: string; tangram_id: string }[] },
): Promise<{ mounts: TMount[]; compiled: TCompiledFormula }> {
  const mounts = await tenantMounts(db, principal, v.devices);
  try {
    return { mounts, compiled: compileFormula(v.formula, mounts) };
  } catch (err) {
    if (!(err instanceof FormulaError)) throw err;
    const { message, position } = err.problem;
    throw new AppError(400, 'FORMULA_INVALID', `formula: ${message}`, [
      { path: 'formula', message, ...(position === null ? {} : { position }) },
    ]);
  }
}

/** Runs `write`; a name already used in the tenant answers 409 PLATFORM_TELEMETRY_NAME_TAKEN. */
async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`a platform telemetry named ${name} exists`, 'PLATFORM_TELEMETRY_NAME_TAKEN');
    throw err;
  }
}
