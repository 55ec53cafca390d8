/**
 * Authorisation requests (spec §4 "Authorisation requests for devices, projects and machines can be allowed or denied
 * by the owner"; §6 "manager versus all visibility"; §7 `/client-authz/v1`; docs/decisions/authorisation.md): a user
 * asks for a device, its whole project or a machine, with the proof the project's method asks for; the tenant's
 * vendors — and the managers of the device or machine (users whose role there includes `manage_access`) — allow or
 * deny with a note and may revoke what was allowed; the requester may cancel while it is pending. An allowed device
 * request is a `device_authz` row, a project request a `project_authz` row, a machine request a `machine_authz` row;
 * revoking deletes it. Every request stays in the history with its answer. Every query is scoped to the caller's
 * tenant: another tenant's request answers 404, and so does one a user neither made nor manages. Asking is in
 * create-request.ts.
 */
import {
  claimPath,
  ErrorCode,
  type TAuthzDecisionInput,
  type TAuthzHolder,
  type TAuthzQrCode,
  type TAuthzRequest,
  type TAuthzRequestQuery,
  type TAuthzState,
  type TPage,
  ZAuthzDecisionInput,
} from '@tessera/contracts';
import { and, count, desc, eq, gte, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { AppError, forbidden, notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { pageOf } from '../../db/paging.js';
import { accounts, authzRequests, deviceAuthz, devices, machineAuthz, machines, projectAuthz, projects } from '../../db/schema.js';
import { roleGrantedDeviceIds, roleGrantedMachineIds } from '../project-roles/grants.js';
import { directlyAuthorisedIds } from '../devices/access.js';
import { qrClaimCode } from './proofs.js';

const decider = alias(accounts, 'decider');

/** The columns a request is presented from (one select for lists and single reads). */
const requestColumns = {
  request: authzRequests,
  deviceTangramId: devices.tangramId,
  deviceName: devices.name,
  projectName: projects.name,
  machineName: machines.name,
  requesterEmail: accounts.email,
  deciderEmail: decider.email,
};
type TRequestRow = {
  request: typeof authzRequests.$inferSelect;
  deviceTangramId: string | null;
  deviceName: string | null;
  projectName: string | null;
  machineName: string | null;
  requesterEmail: string;
  deciderEmail: string | null;
};

function selectRequests(db: Db) {
  return db
    .select(requestColumns)
    .from(authzRequests)
    .leftJoin(projects, eq(projects.id, authzRequests.projectId))
    .leftJoin(machines, eq(machines.id, authzRequests.machineId))
    .innerJoin(accounts, eq(accounts.id, authzRequests.accountId))
    .leftJoin(devices, eq(devices.id, authzRequests.deviceId))
    .leftJoin(decider, eq(decider.id, authzRequests.decidedBy));
}

/** States in which the requester has (or had) the target: only then does it learn the target's names. */
const NAMES_SHOWN_TO_REQUESTER: readonly TAuthzState[] = ['allowed', 'revoked'];

/**
 * True when `viewer` asked for the request and has not been given the target: it then sees the identifiers it asked
 * with (the Tangram ID, the project's id), not the device's, project's or machine's names — a serial number guessed
 * in a tenant of several customers must not tell their names (docs/decisions/authorisation.md "What the asker sees").
 */
function isNamesHidden(r: TRequestRow['request'], viewer: TPrincipal | null): boolean {
  return viewer?.level === 'user' && r.accountId === viewer.accountId && !NAMES_SHOWN_TO_REQUESTER.includes(r.status);
}

/** The request as `viewer` may read it (null: a reader that sees every name, the holders list). */
function present(row: TRequestRow, viewer: TPrincipal | null): TAuthzRequest {
  const r = row.request;
  const hidden = isNamesHidden(r, viewer);
  const name = (known: string | null) => (hidden ? '' : (known ?? ''));
  return {
    id: r.id,
    target: r.target,
    status: r.status,
    method: r.method,
    device: row.deviceTangramId ? { tangram_id: row.deviceTangramId, name: name(row.deviceName) } : null,
    project: r.projectId !== null ? { id: r.projectId, name: name(row.projectName) } : null,
    machine: r.machineId !== null ? { id: r.machineId, name: name(row.machineName) } : null,
    requester: { account_id: r.accountId, email: row.requesterEmail },
    message: r.message,
    note: r.note,
    decided_by: row.deciderEmail,
    created_at: r.createdAt,
    decided_at: r.decidedAt,
    revoked_at: r.revokedAt,
  };
}

/**
 * The requests a user manages (spec §6 "manager versus all visibility"): device requests for devices, and machine
 * requests for machines, that one of its roles holds with `manage_access`. Project requests stay the vendor's.
 */
function managedBy(principal: TPrincipal): SQL {
  return or(
    and(
      eq(authzRequests.target, 'device'),
      sql`${authzRequests.deviceId} in (${roleGrantedDeviceIds(principal.accountId, 'manage_access')})`,
    ),
    and(
      eq(authzRequests.target, 'machine'),
      sql`${authzRequests.machineId} in (${roleGrantedMachineIds(principal.accountId, 'manage_access')})`,
    ),
  )!;
}

/** The requests `principal` may read: its tenant's (vendors, admins), or its own and those it manages (users). */
function readableBy(principal: TPrincipal): SQL {
  const ofTenant = eq(authzRequests.tenantId, principal.tenantId);
  if (principal.level !== 'user') return ofTenant;
  return and(ofTenant, or(eq(authzRequests.accountId, principal.accountId), managedBy(principal)))!;
}

/** The requests `principal` may answer: its tenant's (vendors, admins) or those it manages (users). */
function answerableBy(principal: TPrincipal): SQL {
  const ofTenant = eq(authzRequests.tenantId, principal.tenantId);
  return principal.level === 'user' ? and(ofTenant, managedBy(principal))! : ofTenant;
}

/** Request `id` as `principal` may read it. @throws AppError 404 when it may not (another tenant's, another user's). */
export async function requestOf(db: Db, principal: TPrincipal, id: number): Promise<TAuthzRequest> {
  const [row] = await selectRequests(db).where(and(eq(authzRequests.id, id), readableBy(principal)));
  if (!row) throw notFound('authorisation request');
  return present(row, principal);
}

/**
 * What a decision did: the request as it now is, and the requester to tell on the live channel (an owner's answer
 * or revocation; null for the requester's own cancel).
 */
export interface TDecisionResult {
  request: TAuthzRequest;
  tellRequester: number | null;
}

/** The state each decision needs and the state it leaves. */
const TRANSITIONS = {
  allow: { from: 'pending', to: 'allowed' },
  deny: { from: 'pending', to: 'denied' },
  revoke: { from: 'allowed', to: 'revoked' },
  cancel: { from: 'pending', to: 'cancelled' },
} as const satisfies Record<TAuthzDecisionInput['decision'], { from: TAuthzState; to: TAuthzState }>;

/**
 * PUT {id}: `allow`, `deny` (a pending request) or `revoke` (an allowed one) by a vendor or admin of the tenant, with
 * an optional note; `cancel` (its own pending request) by the requester. Allow writes the grant and revoke deletes it
 * in the same transaction as the state change; a concurrent answer loses cleanly (the state is checked in the UPDATE).
 * @throws AppError 404 for a request of another tenant (or another user's, for a user); 403 when a user decides or a
 * vendor cancels; 409 AUTHZ_STATE when the request is not in the state the decision needs (or its device is gone).
 */
export async function decideRequest(
  db: Db,
  principal: TPrincipal,
  id: number,
  raw: TAuthzDecisionInput,
  nowMs: number,
): Promise<TDecisionResult> {
  const { decision, note } = ZAuthzDecisionInput.parse(raw);
  const before = await requestOf(db, principal, id);
  const mayAnswer = async () =>
    (
      await db
        .select({ id: authzRequests.id })
        .from(authzRequests)
        .where(and(eq(authzRequests.id, id), answerableBy(principal)))
    ).length > 0;
  if (decision === 'cancel' ? before.requester.account_id !== principal.accountId : !(await mayAnswer())) {
    throw forbidden(decision === 'cancel' ? 'only the requester cancels a request' : 'only the owner or a manager answers a request');
  }
  const { from, to } = TRANSITIONS[decision];
  const stateError = () => new AppError(409, ErrorCode.AuthzState, `the request is ${before.status}; ${decision} needs a ${from} request`);
  if (before.status !== from) throw stateError();

  const changed = await db.transaction(async (tx) => {
    const stamp =
      decision === 'revoke'
        ? { revokedAt: nowMs }
        : decision === 'cancel'
          ? { decidedAt: nowMs }
          : { decidedAt: nowMs, decidedBy: principal.accountId, note };
    const [row] = await tx
      .update(authzRequests)
      .set({ status: to, ...stamp, ...(decision === 'revoke' && note ? { note } : {}) })
      .where(and(eq(authzRequests.id, id), eq(authzRequests.status, from)))
      .returning();
    if (!row) throw stateError();
    if (decision === 'allow') {
      if (row.target === 'project' && row.projectId !== null) {
        await tx.insert(projectAuthz).values({ projectId: row.projectId, accountId: row.accountId }).onConflictDoNothing();
      } else if (row.target === 'machine') {
        if (row.machineId === null) throw new AppError(409, ErrorCode.AuthzState, 'the machine of this request was deleted');
        await tx.insert(machineAuthz).values({ machineId: row.machineId, accountId: row.accountId }).onConflictDoNothing();
      } else {
        if (row.deviceId === null) throw new AppError(409, ErrorCode.AuthzState, 'the device of this request was deleted');
        await tx.insert(deviceAuthz).values({ deviceId: row.deviceId, accountId: row.accountId }).onConflictDoNothing();
      }
      return row.accountId;
    }
    if (decision === 'revoke') {
      if (row.target === 'project' && row.projectId !== null) {
        await tx.delete(projectAuthz).where(and(eq(projectAuthz.projectId, row.projectId), eq(projectAuthz.accountId, row.accountId)));
      } else if (row.target === 'machine' && row.machineId !== null) {
        await tx.delete(machineAuthz).where(and(eq(machineAuthz.machineId, row.machineId), eq(machineAuthz.accountId, row.accountId)));
      } else if (row.deviceId !== null) {
        await tx.delete(deviceAuthz).where(and(eq(deviceAuthz.deviceId, row.deviceId), eq(deviceAuthz.accountId, row.accountId)));
      }
      return row.accountId;
    }
    return decision === 'deny' ? row.accountId : null;
  });
  return { request: await requestOf(db, principal, id), tellRequester: changed };
}

/** The rows whose names `principal` sees ({@link isNamesHidden} in SQL): a text search must not find a hidden name either. */
function namesShownTo(principal: TPrincipal): SQL | undefined {
  if (principal.level !== 'user') return undefined;
  return or(sql`${authzRequests.accountId} <> ${principal.accountId}`, inArray(authzRequests.status, [...NAMES_SHOWN_TO_REQUESTER]));
}

/** A request whose device, project or machine name matches `like`. */
const namesMatch = (like: string) => or(ilike(devices.name, like), ilike(projects.name, like), ilike(machines.name, like));

/**
 * GET device-authz: the requests `principal` may read (vendors: the tenant's; users: their own and those they
 * manage), newest first, filtered by state, target, creation period and `q` (requester email, device name or Tangram
 * ID, project or machine name; names only where the caller sees them). A user's own request shows the target's names
 * only once allowed ({@link isNamesHidden}).
 */
export async function listRequests(db: Db, principal: TPrincipal, query: TAuthzRequestQuery): Promise<TPage<TAuthzRequest>> {
  const like = query.q ? `%${query.q}%` : null;
  const scoped =
    principal.level !== 'user' || !query.scope
      ? readableBy(principal)
      : query.scope === 'mine'
        ? and(eq(authzRequests.tenantId, principal.tenantId), eq(authzRequests.accountId, principal.accountId))
        : answerableBy(principal);
  const where = and(
    scoped,
    query.status ? eq(authzRequests.status, query.status) : undefined,
    query.target ? eq(authzRequests.target, query.target) : undefined,
    query.from !== undefined ? gte(authzRequests.createdAt, Number(query.from)) : undefined,
    query.to !== undefined ? lte(authzRequests.createdAt, Number(query.to)) : undefined,
    like ? or(ilike(accounts.email, like), ilike(devices.tangramId, like), and(namesShownTo(principal), namesMatch(like))) : undefined,
  );
  return pageOf(
    query,
    db
      .select({ total: count() })
      .from(authzRequests)
      .leftJoin(projects, eq(projects.id, authzRequests.projectId))
      .leftJoin(machines, eq(machines.id, authzRequests.machineId))
      .innerJoin(accounts, eq(accounts.id, authzRequests.accountId))
      .leftJoin(devices, eq(devices.id, authzRequests.deviceId))
      .where(where),
    (limit, offset) => selectRequests(db).where(where).orderBy(desc(authzRequests.id)).limit(limit).offset(offset),
    (row) => present(row, principal),
  );
}

/**
 * GET users: who holds access through an allowed request — of the tenant (vendors, admins) or of what a user manages
 * — newest first; `q` filters by email.
 */
export async function listHolders(
  db: Db,
  principal: TPrincipal,
  query: { page: number; limit: number; q?: string },
): Promise<TPage<TAuthzHolder>> {
  const where = and(
    answerableBy(principal),
    eq(authzRequests.status, 'allowed'),
    query.q ? ilike(accounts.email, `%${query.q}%`) : undefined,
  );
  return pageOf(
    query,
    db.select({ total: count() }).from(authzRequests).innerJoin(accounts, eq(accounts.id, authzRequests.accountId)).where(where),
    (limit, offset) => selectRequests(db).where(where).orderBy(desc(authzRequests.decidedAt)).limit(limit).offset(offset),
    (row) => {
      const r = present(row, null);
      return {
        request_id: r.id,
        account_id: r.requester.account_id,
        email: r.requester.email,
        target: r.target,
        device: r.device,
        project: r.project,
        machine: r.machine,
        since: r.decided_at ?? r.created_at,
      };
    },
  );
}

/** GET device-ids: the Tangram IDs granted to `principal` (a user) directly: devices and its granted projects' devices. */
export async function grantedTangramIds(db: Db, principal: TPrincipal): Promise<string[]> {
  if (principal.level !== 'user') throw forbidden('vendors and admins hold every device of their tenant');
  const rows = await db
    .select({ tangramId: devices.tangramId })
    .from(devices)
    .where(and(eq(devices.tenantId, principal.tenantId), sql`${devices.id} in (${directlyAuthorisedIds(principal.accountId)})`))
    .orderBy(devices.tangramId);
  return rows.map((r) => r.tangramId);
}

/**
 * GET qrcode/{tangramId}: the claim code printed on a device of `principal`'s tenant and the console path its QR code
 * carries. @throws AppError 404 for a device of another tenant or none.
 */
export async function qrClaimOf(db: Db, principal: TPrincipal, rawTangramId: string): Promise<TAuthzQrCode> {
  const tangramId = rawTangramId.toUpperCase();
  const [device] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.tangramId, tangramId), eq(devices.tenantId, principal.tenantId)));
  if (!device) throw notFound('device');
  const proof = await qrClaimCode(db, tangramId);
  return { tangram_id: tangramId, proof, path: claimPath(tangramId, proof) };
}
