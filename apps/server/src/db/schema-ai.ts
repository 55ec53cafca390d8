/**
 * The AI model registry (docs/decisions/ai.md): models of a tenant, their numbered revisions (each a file in the blob
 * store), and their rollouts to devices with each device's state.
 * Part of the one Drizzle schema (schema.ts re-exports every schema file); times are epoch ms in `bigint` columns.
 */
import { sql } from 'drizzle-orm';
import { bigint, doublePrecision, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { AI_MODEL_FRAMEWORKS, MODEL_DEPLOYMENT_STATES } from '@tessera/contracts';
import { createdAt, updatedAt } from './columns.js';
import { accounts, tenants } from './schema-accounts.js';
import { devices, tangramProducts } from './schema-catalogue.js';

/**
 * A model: what it is and which hardware module of the catalogue it targets. Names are unique in a tenant ignoring
 * case. `next_revision` is the number the next upload gets: numbers only grow, a deleted one is never given again.
 */
export const aiModels = pgTable(
  'ai_models',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    framework: text('framework', { enum: AI_MODEL_FRAMEWORKS }).notNull(),
    tangramProductId: integer('tangram_product_id')
      .notNull()
      .references(() => tangramProducts.id),
    inputDescription: text('input_description').notNull().default(''),
    outputDescription: text('output_description').notNull().default(''),
    nextRevision: integer('next_revision').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('ai_models_tenant_name_uq').on(t.tenantId, sql`lower(${t.name})`)],
);

/**
 * A revision: an uploaded file (the blob `blob_key`), its SHA-256 (lower-case hex) and size in bytes, the name it was
 * uploaded under, notes, and who uploaded it when. Deleting the model deletes its revisions (their blobs are removed
 * by the registry after the rows).
 */
export const aiModelRevisions = pgTable(
  'ai_model_revisions',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    modelId: integer('model_id')
      .notNull()
      .references(() => aiModels.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    blobKey: text('blob_key').notNull(),
    sha256: text('sha256').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    fileName: text('file_name').notNull(),
    notes: text('notes').notNull().default(''),
    uploadedBy: integer('uploaded_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('ai_model_revisions_model_revision_uq').on(t.modelId, t.revision)],
);

/**
 * A rollout: one deployment of a revision to a set of devices (docs/decisions/ai.md "Deploying to devices"), by whom
 * and when. Its devices are the `ai_model_deployments` rows. The revision may not be deleted while one of its rollouts
 * still holds a device (the registry checks; the restricting key holds against races).
 */
export const aiModelRollouts = pgTable(
  'ai_model_rollouts',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    revisionId: integer('revision_id')
      .notNull()
      .references(() => aiModelRevisions.id, { onDelete: 'restrict' }),
    createdBy: integer('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('ai_model_rollouts_tenant_idx').on(t.tenantId, t.id), index('ai_model_rollouts_revision_idx').on(t.revisionId)],
);

/**
 * One device of a rollout and its state (MODEL_DEPLOYMENT_STATES): `progress` 0…1, the device's `reason` when it
 * failed, `attempt` (1, then + 1 per retry; a device's report names the attempt it speaks of, so a late report of an
 * older attempt changes nothing). A device holds one model: at most one of its rows is not `superseded`.
 */
export const aiModelDeployments = pgTable(
  'ai_model_deployments',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    rolloutId: integer('rollout_id')
      .notNull()
      .references(() => aiModelRollouts.id, { onDelete: 'cascade' }),
    revisionId: integer('revision_id')
      .notNull()
      .references(() => aiModelRevisions.id, { onDelete: 'restrict' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    state: text('state', { enum: MODEL_DEPLOYMENT_STATES }).notNull().default('pending'),
    progress: doublePrecision('progress').notNull().default(0),
    reason: text('reason'),
    attempt: integer('attempt').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('ai_model_deployments_current_device_uq').on(t.deviceId).where(sql`${t.state} <> 'superseded'`),
    index('ai_model_deployments_rollout_idx').on(t.rolloutId),
    index('ai_model_deployments_revision_idx').on(t.revisionId),
  ],
);
