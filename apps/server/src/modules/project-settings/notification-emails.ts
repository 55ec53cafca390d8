/**
 * The project's notification email list (spec §7 "notification emails: GET, PUT"; §5 email valid, unique).
 * Validation (format, case-insensitive uniqueness, NOTIFICATION_EMAILS_MAX) is the contracts schema's, so a bad
 * list never reaches here; a PUT replaces the whole list in one upsert.
 */
import { eq } from 'drizzle-orm';
import type { TNotificationEmails } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { projectNotificationEmails } from '../../db/schema.js';
import { ownedProject } from './owned-project.js';

/** The list of a project already checked to be the caller's (empty when never saved). */
export async function readEmails(db: Db, projectId: number): Promise<string[]> {
  const [row] = await db
    .select({ emails: projectNotificationEmails.emails })
    .from(projectNotificationEmails)
    .where(eq(projectNotificationEmails.projectId, projectId));
  return row?.emails ?? [];
}

/** GET: the tenant's project's list, in the saved order. @throws AppError 404 when not the tenant's project. */
export async function getNotificationEmails(db: Db, tenantId: number, projectId: number): Promise<TNotificationEmails> {
  await ownedProject(db, tenantId, projectId);
  return { emails: await readEmails(db, projectId) };
}

/** PUT: replaces the list with `input.emails` (already lower-cased and unique). @throws AppError 404 as GET. */
export async function putNotificationEmails(
  db: Db,
  tenantId: number,
  projectId: number,
  input: TNotificationEmails,
): Promise<TNotificationEmails> {
  await ownedProject(db, tenantId, projectId);
  const values = { projectId, emails: input.emails, updatedAt: Date.now() };
  await db
    .insert(projectNotificationEmails)
    .values(values)
    .onConflictDoUpdate({ target: projectNotificationEmails.projectId, set: { emails: values.emails, updatedAt: values.updatedAt } });
  return { emails: await readEmails(db, projectId) };
}
