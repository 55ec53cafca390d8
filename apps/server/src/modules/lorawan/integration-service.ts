/**
 * A project's LoRaWAN integrations (docs/decisions/lorawan.md): list, create (answers the secret once), update (name,
 * network server, mapping, transport and broker), delete, rotate the secret. Vendor only, in the caller's tenant;
 * another tenant's project or integration answers 404. A broker password is sealed with the deployment's secret box
 * (SECRETS_KEY, `secretsKey` here) and never answered.
 */
import { and, asc, count, eq } from 'drizzle-orm';
import {
  lorawanPaths,
  MAX_LORAWAN_INTEGRATIONS_PER_PROJECT,
  type TLorawanIntegration,
  type TLorawanIntegrationInput,
  type TLorawanIntegrationWithSecret,
  ZLorawanIntegrationInput,
} from '@tessera/contracts';
import { randomSecret, sha256 } from '../../core/crypto.js';
import { conflict, notFound } from '../../core/errors.js';
import { maskSecret, secretBoxFor } from '../../core/secret-box.js';
import type { Db } from '../../db/client.js';
import { lorawanIntegrations } from '../../db/schema.js';
import { ownedProject } from '../project-settings/owned-project.js';
import { mqttColumns, presentMqtt } from './mqtt-settings.js';

type TRow = typeof lorawanIntegrations.$inferSelect;

/** An integration row as the API answers it (the secret masked). */
export function presentIntegration(row: TRow): TLorawanIntegration {
  return {
    id: row.id,
    project_id: row.projectId,
    name: row.name,
    network_server: row.networkServer,
    mapping: row.mapping,
    transport: row.transport,
    mqtt: presentMqtt(row),
    webhook_path: lorawanPaths.webhook(row.id, row.networkServer),
    secret_masked: maskSecret(row.secretHint),
    uplinks_stored: row.uplinksStored,
    uplinks_refused: row.uplinksRefused,
    events_ignored: row.eventsIgnored,
    last_received_at: row.lastReceivedAt,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** A new secret (256 random bits) and what is stored of it: its SHA-256 and last four characters. */
function newSecret() {
  const secret = randomSecret('lwsec_');
  return { secret, stored: { secretHash: sha256(secret), secretHint: secret.slice(-4) } };
}

/** The project's integrations, oldest first. @throws AppError 404 for a project not in the tenant. */
export async function listIntegrations(db: Db, tenantId: number, projectId: number): Promise<{ data: TLorawanIntegration[] }> {
  await ownedProject(db, tenantId, projectId);
  const rows = await db
    .select()
    .from(lorawanIntegrations)
    .where(eq(lorawanIntegrations.projectId, projectId))
    .orderBy(asc(lorawanIntegrations.id));
  return { data: rows.map(presentIntegration) };
}

/**
 * The tenant's integration `id` of project `projectId`.
 * @throws AppError 404 when either is not the tenant's, or the integration is another project's.
 */
export async function ownedIntegration(db: Db, tenantId: number, projectId: number, id: number): Promise<TRow> {
  const [row] = await db
    .select()
    .from(lorawanIntegrations)
    .where(and(eq(lorawanIntegrations.id, id), eq(lorawanIntegrations.projectId, projectId), eq(lorawanIntegrations.tenantId, tenantId)));
  if (!row) throw notFound('LoRaWAN integration');
  return row;
}

/**
 * Adds an integration to the project; answers it with its new secret in full (shown this once). `secretsKey` is
 * SECRETS_KEY (the secret box that seals a broker password).
 * @throws AppError 404 for a project not in the tenant; 409 CONFLICT past {@link MAX_LORAWAN_INTEGRATIONS_PER_PROJECT}.
 */
export async function createIntegration(
  db: Db,
  tenantId: number,
  projectId: number,
  input: TLorawanIntegrationInput,
  secretsKey?: string,
): Promise<TLorawanIntegrationWithSecret> {
  await ownedProject(db, tenantId, projectId);
  const values = ZLorawanIntegrationInput.parse(input);
  const [{ n }] = await db.select({ n: count() }).from(lorawanIntegrations).where(eq(lorawanIntegrations.projectId, projectId));
  if (n >= MAX_LORAWAN_INTEGRATIONS_PER_PROJECT) {
    throw conflict(`a project has at most ${MAX_LORAWAN_INTEGRATIONS_PER_PROJECT} LoRaWAN integrations`);
  }
  const { secret, stored } = newSecret();
  const mqtt = mqttColumns(await secretBoxFor(db, secretsKey), projectId, values.transport, values.mqtt, null);
  const [row] = await db
    .insert(lorawanIntegrations)
    .values({ tenantId, projectId, name: values.name, networkServer: values.network_server, mapping: values.mapping, ...stored, ...mqtt })
    .returning();
  return { ...presentIntegration(row!), secret };
}

/**
 * Replaces an integration's name, network server, mapping and transport (a broker password omitted is kept).
 * @throws AppError 404 when it is not the tenant's.
 */
export async function updateIntegration(
  db: Db,
  tenantId: number,
  projectId: number,
  id: number,
  input: TLorawanIntegrationInput,
  secretsKey?: string,
): Promise<TLorawanIntegration> {
  const current = await ownedIntegration(db, tenantId, projectId, id);
  const values = ZLorawanIntegrationInput.parse(input);
  const mqtt = mqttColumns(await secretBoxFor(db, secretsKey), projectId, values.transport, values.mqtt, current);
  const [row] = await db
    .update(lorawanIntegrations)
    .set({ name: values.name, networkServer: values.network_server, mapping: values.mapping, ...mqtt, updatedAt: Date.now() })
    .where(eq(lorawanIntegrations.id, id))
    .returning();
  return presentIntegration(row!);
}

/** Deletes an integration and its payload log; its URL answers 401 from then on. @throws AppError 404 when not the tenant's. */
export async function deleteIntegration(db: Db, tenantId: number, projectId: number, id: number): Promise<void> {
  await ownedIntegration(db, tenantId, projectId, id);
  await db.delete(lorawanIntegrations).where(eq(lorawanIntegrations.id, id));
}

/**
 * Gives an integration a new secret (the old one is refused at once); answers it in full, this once.
 * @throws AppError 404 when it is not the tenant's.
 */
export async function rotateIntegrationSecret(
  db: Db,
  tenantId: number,
  projectId: number,
  id: number,
): Promise<TLorawanIntegrationWithSecret> {
  await ownedIntegration(db, tenantId, projectId, id);
  const { secret, stored } = newSecret();
  const [row] = await db
    .update(lorawanIntegrations)
    .set({ ...stored, updatedAt: Date.now() })
    .where(eq(lorawanIntegrations.id, id))
    .returning();
  return { ...presentIntegration(row!), secret };
}
