/**
 * Deploying a revision to devices (docs/decisions/ai.md "Deploying to devices"): a rollout gives each of its devices a
 * `pending` deployment (superseding the one the device held) and tells it on its retained model topic; a retry sends
 * the failed ones again as a new attempt; removing a rollout takes its revision off the devices that still hold it.
 * Rows are written first and the broker told after the commit, so a device never hears of a deployment that is not
 * stored.
 */
import { and, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { MAX_ROLLOUT_DEVICES, ModelDeploymentErrorCode, type TRollout, type TRolloutInput, type TRolloutRetry } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { TMessageBus } from '../../core/context.js';
import { AppError, notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { aiModelDeployments, aiModelRevisions, aiModelRollouts, aiModels, devices, projects } from '../../db/schema.js';
import type { TDbOrTx } from '../auth/db-types.js';
import { ownedModel } from '../ai-models/model-queries.js';
import { ownedRevision } from '../ai-models/revision-queries.js';
import { clearModels, publishDeliveries, type TModelDelivery } from './model-message.js';
import { getRollout } from './rollout-queries.js';

/** What deploying needs: the database, the broker, a log, and the base of the URLs devices are given. */
export interface TDeployDeps {
  db: Db;
  bus: TMessageBus;
  log: Logger;
  /** PUBLIC_URL, else the origin the console was reached at (no trailing slash). */
  baseUrl: string;
}

const unprocessable = (code: string, message: string) => new AppError(422, code, message);

/**
 * The tenant's devices named by `input` (by id, and every device of its project), locked for the rollout.
 * @throws AppError 404 when a device or the project is not the tenant's; 422 ROLLOUT_NO_DEVICES,
 *   ROLLOUT_TOO_MANY_DEVICES, ROLLOUT_WRONG_HARDWARE (a device on another hardware module than `tangramProductId`).
 */
async function devicesOfRollout(
  tx: TDbOrTx,
  tenantId: number,
  input: { device_ids: number[]; project_id?: number },
  tangramProductId: number,
) {
  if (input.project_id !== undefined) {
    const [project] = await tx
      .select({ id: projects.id })
      .from(projects)
      .where(and(eq(projects.id, input.project_id), eq(projects.tenantId, tenantId)));
    if (!project) throw notFound('project');
  }
  const ids = [...new Set(input.device_ids)];
  const named = or(
    ids.length > 0 ? inArray(devices.id, ids) : undefined,
    input.project_id !== undefined ? eq(devices.projectId, input.project_id) : undefined,
  );
  const rows = await tx
    .select({ id: devices.id, name: devices.name, tangramId: devices.tangramId, tangramProductId: projects.tangramProductId })
    .from(devices)
    .innerJoin(projects, eq(projects.id, devices.projectId))
    .where(and(eq(devices.tenantId, tenantId), named))
    .orderBy(devices.id)
    .for('update', { of: devices });
  const found = new Set(rows.map((r) => r.id));
  if (ids.some((id) => !found.has(id))) throw notFound('device');
  if (rows.length === 0) throw unprocessable(ModelDeploymentErrorCode.NoDevices, 'the rollout names no device: the project has none');
  if (rows.length > MAX_ROLLOUT_DEVICES) {
    throw unprocessable(
      ModelDeploymentErrorCode.TooManyDevices,
      `a rollout holds at most ${MAX_ROLLOUT_DEVICES} devices; this one names ${rows.length}`,
    );
  }
  const wrong = rows.filter((r) => r.tangramProductId !== tangramProductId);
  if (wrong.length > 0) {
    const names = wrong.slice(0, 5).map((r) => r.name);
    throw unprocessable(
      ModelDeploymentErrorCode.WrongHardware,
      `${wrong.length} device(s) run on another hardware module than the model targets: ${names.join(', ')}${wrong.length > names.length ? ', …' : ''}`,
    );
  }
  return rows;
}

/**
 * POST ai-models/{id}/revisions/{rev}/rollouts: deploys revision `rev` of model `modelId` to the devices `input`
 * names. Each device's current deployment (of any revision) becomes `superseded`; the devices are told after the
 * commit.
 * @throws AppError 404 when the model, the revision, a device or the project is not the tenant's; 422 as
 *   {@link devicesOfRollout}.
 */
export async function createRollout(
  deps: TDeployDeps,
  principal: TPrincipal,
  modelId: number,
  rev: number,
  input: TRolloutInput & { device_ids: number[] },
): Promise<TRollout> {
  const { rolloutId, deliveries } = await deps.db.transaction(async (tx) => {
    // The model's row lock orders this against deleting the revision or the model.
    const model = await ownedModel(tx, principal.tenantId, modelId, 'update');
    const revision = await ownedRevision(tx, principal.tenantId, modelId, rev);
    const targets = await devicesOfRollout(tx, principal.tenantId, input, model.tangramProductId);
    const deviceIds = targets.map((d) => d.id);
    const now = Date.now();
    await tx
      .update(aiModelDeployments)
      .set({ state: 'superseded', updatedAt: now })
      .where(and(inArray(aiModelDeployments.deviceId, deviceIds), ne(aiModelDeployments.state, 'superseded')));
    const [rollout] = await tx
      .insert(aiModelRollouts)
      .values({ tenantId: principal.tenantId, revisionId: revision.id, createdBy: principal.accountId })
      .returning({ id: aiModelRollouts.id });
    const rows = await tx
      .insert(aiModelDeployments)
      .values(targets.map((d) => ({ tenantId: principal.tenantId, rolloutId: rollout.id, revisionId: revision.id, deviceId: d.id })))
      .returning({ id: aiModelDeployments.id });
    return {
      rolloutId: rollout.id,
      deliveries: await deliveriesOf(
        tx,
        rows.map((r) => r.id),
      ),
    };
  });
  await publishDeliveries(deps.bus, deps.log, deliveries, deps.baseUrl);
  return getRollout(deps.db, principal.tenantId, rolloutId);
}

/** What the devices of deployments `ids` are told (with each deployment's current attempt). */
async function deliveriesOf(db: TDbOrTx, ids: number[]): Promise<TModelDelivery[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ deployment: aiModelDeployments, tangramId: devices.tangramId, revision: aiModelRevisions, model: aiModels })
    .from(aiModelDeployments)
    .innerJoin(devices, eq(devices.id, aiModelDeployments.deviceId))
    .innerJoin(aiModelRevisions, eq(aiModelRevisions.id, aiModelDeployments.revisionId))
    .innerJoin(aiModels, eq(aiModels.id, aiModelRevisions.modelId))
    .where(inArray(aiModelDeployments.id, ids));
  return rows.map(({ deployment, tangramId, revision, model }) => ({
    deploymentId: deployment.id,
    attempt: deployment.attempt,
    tangramId,
    modelId: model.id,
    modelName: model.name,
    framework: model.framework,
    revision: revision.revision,
    fileName: revision.fileName,
    sizeBytes: revision.sizeBytes,
    sha256: revision.sha256,
  }));
}

/** The rollout `id` of the tenant, locked. @throws AppError 404 when it is not the tenant's. */
async function ownedRollout(tx: TDbOrTx, tenantId: number, id: number): Promise<void> {
  const [row] = await tx
    .select({ id: aiModelRollouts.id })
    .from(aiModelRollouts)
    .where(and(eq(aiModelRollouts.id, id), eq(aiModelRollouts.tenantId, tenantId)))
    .for('update');
  if (!row) throw notFound('rollout');
}

/**
 * POST model-rollouts/{id}/retry: every `failed` device of the rollout starts a new attempt (`pending`, progress 0)
 * and is told again; devices still `pending` (perhaps never told: the broker was down) are told again as they are.
 * Answers how many failed devices were retried.
 * @throws AppError 404 when the rollout is not the tenant's.
 */
export async function retryRollout(deps: TDeployDeps, tenantId: number, id: number): Promise<TRolloutRetry> {
  const { retried, deliveries } = await deps.db.transaction(async (tx) => {
    await ownedRollout(tx, tenantId, id);
    const now = Date.now();
    const failed = await tx
      .update(aiModelDeployments)
      .set({ state: 'pending', progress: 0, reason: null, attempt: sql`${aiModelDeployments.attempt} + 1`, updatedAt: now })
      .where(and(eq(aiModelDeployments.rolloutId, id), eq(aiModelDeployments.state, 'failed')))
      .returning({ id: aiModelDeployments.id });
    const pending = await tx
      .select({ id: aiModelDeployments.id })
      .from(aiModelDeployments)
      .where(and(eq(aiModelDeployments.rolloutId, id), eq(aiModelDeployments.state, 'pending')));
    return {
      retried: failed.length,
      deliveries: await deliveriesOf(
        tx,
        pending.map((r) => r.id),
      ),
    };
  });
  await publishDeliveries(deps.bus, deps.log, deliveries, deps.baseUrl);
  return { retried };
}

/**
 * DELETE model-rollouts/{id}: the devices of the rollout that still hold its revision are told they hold no model
 * (an empty retained message), and the rollout is deleted with its rows; the revision may then be deleted.
 * @throws AppError 404 when the rollout is not the tenant's.
 */
export async function removeRollout(deps: TDeployDeps, tenantId: number, id: number): Promise<void> {
  const holders = await deps.db.transaction(async (tx) => {
    await ownedRollout(tx, tenantId, id);
    const rows = await tx
      .select({ tangramId: devices.tangramId })
      .from(aiModelDeployments)
      .innerJoin(devices, eq(devices.id, aiModelDeployments.deviceId))
      .where(and(eq(aiModelDeployments.rolloutId, id), ne(aiModelDeployments.state, 'superseded')));
    await tx.delete(aiModelRollouts).where(eq(aiModelRollouts.id, id));
    return rows.map((r) => r.tangramId);
  });
  await clearModels(deps.bus, deps.log, holders);
}
