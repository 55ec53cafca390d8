/**
 * A project's outbound webhooks (docs/decisions/webhooks.md): list, create (answers the signing secret once), update,
 * delete, rotate the secret. Vendor only, in the caller's tenant; another tenant's project or webhook answers 404.
 */
import { and, asc, count, eq } from 'drizzle-orm';
import { MAX_WEBHOOKS_PER_PROJECT, type TWebhook, type TWebhookInput, type TWebhookWithSecret, ZWebhookInput } from '@tessera/contracts';
import { randomSecret } from '../../core/crypto.js';
import { conflict, notFound } from '../../core/errors.js';
import { maskSecret, secretBoxFor } from '../../core/secret-box.js';
import type { Db } from '../../db/client.js';
import { projectWebhooks } from '../../db/schema.js';
import { ownedProject } from '../project-settings/owned-project.js';

/** The secret box context of a webhook secret of `projectId` (a sealed secret is bound to its project). */
export const webhookSecretContext = (projectId: number) => `webhook-secret:${projectId}`;

type TRow = typeof projectWebhooks.$inferSelect;

/** A webhook row as the API answers it (the secret masked). */
export function presentWebhook(row: TRow): TWebhook {
  return {
    id: row.id,
    project_id: row.projectId,
    url: row.url,
    events: row.events as TWebhook['events'],
    enabled: row.enabled,
    secret_masked: maskSecret(row.secretHint),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The project's webhooks, oldest first. @throws AppError 404 for a project not in the tenant. */
export async function listWebhooks(db: Db, tenantId: number, projectId: number): Promise<{ data: TWebhook[] }> {
  await ownedProject(db, tenantId, projectId);
  const rows = await db.select().from(projectWebhooks).where(eq(projectWebhooks.projectId, projectId)).orderBy(asc(projectWebhooks.id));
  return { data: rows.map(presentWebhook) };
}

/**
 * The tenant's webhook `id` of project `projectId`.
 * @throws AppError 404 when either is not the tenant's, or the webhook is another project's.
 */
export async function ownedWebhook(db: Db, tenantId: number, projectId: number, id: number): Promise<TRow> {
  const [row] = await db
    .select()
    .from(projectWebhooks)
    .where(and(eq(projectWebhooks.id, id), eq(projectWebhooks.projectId, projectId), eq(projectWebhooks.tenantId, tenantId)));
  if (!row) throw notFound('webhook');
  return row;
}

async function sealedSecret(db: Db, secretsKey: string | undefined, projectId: number) {
  const secret = randomSecret('whsec_', 24);
  const box = await secretBoxFor(db, secretsKey);
  return { secret, secretSealed: box.encrypt(secret, webhookSecretContext(projectId)), secretHint: secret.slice(-4) };
}

/**
 * Adds a webhook to the project; answers it with its new signing secret in full (shown this once).
 * @throws AppError 404 for a project not in the tenant; 409 CONFLICT past {@link MAX_WEBHOOKS_PER_PROJECT}.
 */
export async function createWebhook(
  db: Db,
  secretsKey: string | undefined,
  tenantId: number,
  projectId: number,
  input: TWebhookInput,
): Promise<TWebhookWithSecret> {
  await ownedProject(db, tenantId, projectId);
  const values = ZWebhookInput.parse(input);
  const [{ n }] = await db.select({ n: count() }).from(projectWebhooks).where(eq(projectWebhooks.projectId, projectId));
  if (n >= MAX_WEBHOOKS_PER_PROJECT) throw conflict(`a project has at most ${MAX_WEBHOOKS_PER_PROJECT} webhooks`);
  const { secret, ...sealed } = await sealedSecret(db, secretsKey, projectId);
  const [row] = await db
    .insert(projectWebhooks)
    .values({ tenantId, projectId, url: values.url, events: [...new Set(values.events)], enabled: values.enabled, ...sealed })
    .returning();
  return { ...presentWebhook(row!), secret };
}

/** Replaces a webhook's URL, events and switch. @throws AppError 404 when it is not the tenant's. */
export async function updateWebhook(db: Db, tenantId: number, projectId: number, id: number, input: TWebhookInput): Promise<TWebhook> {
  await ownedWebhook(db, tenantId, projectId, id);
  const values = ZWebhookInput.parse(input);
  const [row] = await db
    .update(projectWebhooks)
    .set({ url: values.url, events: [...new Set(values.events)], enabled: values.enabled, updatedAt: Date.now() })
    .where(eq(projectWebhooks.id, id))
    .returning();
  return presentWebhook(row!);
}

/** Deletes a webhook and its delivery log. @throws AppError 404 when it is not the tenant's. */
export async function deleteWebhook(db: Db, tenantId: number, projectId: number, id: number): Promise<void> {
  await ownedWebhook(db, tenantId, projectId, id);
  await db.delete(projectWebhooks).where(eq(projectWebhooks.id, id));
}

/**
 * Gives a webhook a new signing secret (the old one stops signing at once); answers it in full, this once.
 * @throws AppError 404 when it is not the tenant's.
 */
export async function rotateWebhookSecret(
  db: Db,
  secretsKey: string | undefined,
  tenantId: number,
  projectId: number,
  id: number,
): Promise<TWebhookWithSecret> {
  await ownedWebhook(db, tenantId, projectId, id);
  const { secret, ...sealed } = await sealedSecret(db, secretsKey, projectId);
  const [row] = await db
    .update(projectWebhooks)
    .set({ ...sealed, updatedAt: Date.now() })
    .where(eq(projectWebhooks.id, id))
    .returning();
  return { ...presentWebhook(row!), secret };
}
