/**
 * Reading rollouts (docs/decisions/ai.md "Deploying to devices"): the tenant's rollouts newest first with their
 * devices counted by state, one rollout, and a rollout's devices with their states.
 */
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { TRollout, TRolloutCounts, TRolloutDevice, TRolloutDeviceQuery, TRolloutListQuery, TPage } from '@tessera/contracts';
import { MODEL_DEPLOYMENT_STATES } from '@tessera/contracts';
import { notFound } from '../../core/errors.js';
import { pageOf } from '../../db/paging.js';
import { accounts, aiModelDeployments, aiModelRevisions, aiModelRollouts, aiModels, devices } from '../../db/schema.js';
import { searchAny } from '../../db/sql-helpers.js';
import type { TDbOrTx } from '../auth/db-types.js';

/** `count(*) filter (where state = s)` of each state, as numbers. */
const stateCounts = Object.fromEntries(
  MODEL_DEPLOYMENT_STATES.map((s) => [s, sql<number>`(count(*) filter (where ${aiModelDeployments.state} = ${s}))::int`]),
) as Record<keyof TRolloutCounts, SQL<number>>;

/** The columns of a rollout view: the rollout, its revision and model, its creator, and its devices counted. */
function selectRollouts(db: TDbOrTx, where: SQL | undefined) {
  return db
    .select({
      rollout: aiModelRollouts,
      revision: aiModelRevisions,
      modelName: aiModels.name,
      creatorEmail: accounts.email,
      total: sql<number>`(count(${aiModelDeployments.id}))::int`,
      ...stateCounts,
    })
    .from(aiModelRollouts)
    .innerJoin(aiModelRevisions, eq(aiModelRevisions.id, aiModelRollouts.revisionId))
    .innerJoin(aiModels, eq(aiModels.id, aiModelRevisions.modelId))
    .leftJoin(accounts, eq(accounts.id, aiModelRollouts.createdBy))
    .leftJoin(aiModelDeployments, eq(aiModelDeployments.rolloutId, aiModelRollouts.id))
    .where(where)
    .groupBy(aiModelRollouts.id, aiModelRevisions.id, aiModels.name, accounts.email)
    .orderBy(desc(aiModelRollouts.id));
}

type TRolloutRow = Awaited<ReturnType<typeof selectRollouts>>[number];

/** Presents a rollout view. */
function presentRollout(row: TRolloutRow): TRollout {
  const { rollout, revision } = row;
  return {
    id: rollout.id,
    model_id: revision.modelId,
    model_name: row.modelName,
    revision: revision.revision,
    revision_id: revision.id,
    file_name: revision.fileName,
    size_bytes: revision.sizeBytes,
    sha256: revision.sha256,
    created_by: rollout.createdBy !== null && row.creatorEmail !== null ? { account_id: rollout.createdBy, email: row.creatorEmail } : null,
    created_at: rollout.createdAt,
    device_count: row.total,
    counts: Object.fromEntries(MODEL_DEPLOYMENT_STATES.map((s) => [s, row[s]])) as TRolloutCounts,
  };
}

/** GET model-rollouts: the tenant's rollouts, newest first, of one model with `model_id`. */
export async function listRollouts(db: TDbOrTx, tenantId: number, query: TRolloutListQuery): Promise<TPage<TRollout>> {
  const where = and(eq(aiModelRollouts.tenantId, tenantId), query.model_id !== undefined ? eq(aiModels.id, query.model_id) : undefined);
  return pageOf(
    query,
    db
      .select({ total: count() })
      .from(aiModelRollouts)
      .innerJoin(aiModelRevisions, eq(aiModelRevisions.id, aiModelRollouts.revisionId))
      .innerJoin(aiModels, eq(aiModels.id, aiModelRevisions.modelId))
      .where(where),
    (limit, offset) => selectRollouts(db, where).limit(limit).offset(offset),
    presentRollout,
  );
}

/**
 * GET model-rollouts/{id}: one rollout of the tenant.
 * @throws AppError 404 when it is not the tenant's.
 */
export async function getRollout(db: TDbOrTx, tenantId: number, id: number): Promise<TRollout> {
  const [row] = await selectRollouts(db, and(eq(aiModelRollouts.id, id), eq(aiModelRollouts.tenantId, tenantId)));
  if (!row) throw notFound('rollout');
  return presentRollout(row);
}

/**
 * GET model-rollouts/{id}/devices: the rollout's devices by name, with `state` narrowing and `q` matching the name or
 * the Tangram ID.
 * @throws AppError 404 when the rollout is not the tenant's.
 */
export async function listRolloutDevices(
  db: TDbOrTx,
  tenantId: number,
  id: number,
  query: TRolloutDeviceQuery,
): Promise<TPage<TRolloutDevice>> {
  await getRollout(db, tenantId, id);
  const where = and(
    eq(aiModelDeployments.rolloutId, id),
    query.state ? eq(aiModelDeployments.state, query.state) : undefined,
    searchAny(query.q, [devices.name, devices.tangramId]),
  );
  return pageOf(
    query,
    db.select({ total: count() }).from(aiModelDeployments).innerJoin(devices, eq(devices.id, aiModelDeployments.deviceId)).where(where),
    (limit, offset) =>
      db
        .select({ deployment: aiModelDeployments, name: devices.name, tangramId: devices.tangramId })
        .from(aiModelDeployments)
        .innerJoin(devices, eq(devices.id, aiModelDeployments.deviceId))
        .where(where)
        .orderBy(devices.name, devices.id)
        .limit(limit)
        .offset(offset),
    ({ deployment: d, name, tangramId }) => ({
      deployment_id: d.id,
      device_id: d.deviceId,
      device_name: name,
      tangram_id: tangramId,
      state: d.state,
      progress: d.progress,
      reason: d.reason,
      attempt: d.attempt,
      updated_at: d.updatedAt,
    }),
  );
}
