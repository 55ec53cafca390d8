/**
 * Authorisation requests (spec §4 "Authorisation requests for devices, projects and machines can be allowed or denied
 * by the owner"; §7 `/client-authz/v1`; docs/decisions/authorisation.md): a user asks for a device or its whole
 * project, with the proof its project's method asks for; the tenant's vendors allow or deny with a note and may
 * revoke what they allowed; the requester may cancel while it is pending. An allowed device request is a
 * `device_authz` row, an allowed project request a `project_authz` row; revoking deletes it. Every request stays in
 * the history with its answer. Every query is scoped to the caller's tenant: another tenant's request answers 404.
 */
import {
  AUTHZ_PENDING_MAX,
  claimPath,
  ErrorCode,
  formatTangramPart,
  TANGRAM_PART_WIDTHS,
  type TAuthzDecisionInput,
  type TAuthzHolder,
  type TAuthzQrCode,
  type TAuthzRequest,
  type TAuthzRequestInput,
  type TAuthzRequestQuery,
  type TAuthzState,
  type TPage,
  ZAuthzDecisionInput,
  ZAuthzRequestInput,
} from '@tessera/contracts';
import { and, count, desc, eq, gte, ilike, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { AppError, conflict, forbidden, notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { pageOf } from '../../db/paging.js';
import { isUniqueViolation } from '../../db/sql-helpers.js';
import { accounts, authzRequests, deviceAuthz, devices, projectAuthz, projects } from '../../db/schema.js';
import { directlyAuthorisedIds, visibleDevicesCondition } from '../devices/access.js';
import { checkProof, qrClaimCode } from './proofs.js';

const decider = alias(accounts, 'decider');
const SERIAL_TEXT = new RegExp(`^[0-9A-Fa-f]{1,${TANGRAM_PART_WIDTHS.serial_number}}$`);

/** The columns a request is presented from (one select for lists and single reads). */
const requestColumns = {
  request: authzRequests,
  deviceTangramId: devices.tangramId,
  deviceName: devices.name,
  projectName: projects.name,
  requesterEmail: accounts.email,
  deciderEmail: decider.email,
};
type TRequestRow = {
  request: typeof authzRequests.$inferSelect;
  deviceTangramId: string | null;
  deviceName: string | null;
  projectName: string;
  requesterEmail: string;
  deciderEmail: string | null;
};

function selectRequests(db: Db) {
  return db
    .select(requestColumns)
    .from(authzRequests)
    .innerJoin(projects, eq(projects.id, authzRequests.projectId))
    .innerJoin(accounts, eq(accounts.id, authzRequests.accountId))
    .leftJoin(devices, eq(devices.id, authzRequests.deviceId))
    .leftJoin(decider, eq(decider.id, authzRequests.decidedBy));
}

function present(row: TRequestRow): TAuthzRequest {
  const r = row.request;
  return {
    id: r.id,
    target: r.target,
    status: r.status,
    method: r.method,
    device: row.deviceTangramId ? { tangram_id: row.deviceTangramId, name: row.deviceName ?? '' } : null,
    project: { id: r.projectId, name: row.projectName },
    requester: { account_id: r.accountId, email: row.requesterEmail },
    message: r.message,
    note: r.note,
    decided_by: row.deciderEmail,
    created_at: r.createdAt,
    decided_at: r.decidedAt,
    revoked_at: r.revokedAt,
  };
}

/** The requests `principal` may read: its tenant's (vendors, admins) or its own (users). */
function readableBy(principal: TPrincipal): SQL {
  const ofTenant = eq(authzRequests.tenantId, principal.tenantId);
  return principal.level === 'user' ? and(ofTenant, eq(authzRequests.accountId, principal.accountId))! : ofTenant;
}

async function requestOf(db: Db, principal: TPrincipal, id: number): Promise<TAuthzRequest> {
  const [row] = await selectRequests(db).where(and(eq(authzRequests.id, id), readableBy(principal)));
  if (!row) throw notFound('authorisation request');
  return present(row);
}

/**
 * POST client: `principal` (a user) asks for `raw.device` (Tangram ID or serial number in its tenant), or with
 * `target: project` for every device of its project.
 * @throws AppError 403 for vendors and admins (they hold every device of the tenant); 404 for an unknown device;
 * 409 CONFLICT when a serial number names several devices; 400 AUTHZ_PROOF_REQUIRED / AUTHZ_PROOF_INVALID (proofs.ts);
 * 409 AUTHZ_ALREADY_GRANTED when it already holds the target; 409 AUTHZ_STATE when the same request is pending or it
 * has {@link AUTHZ_PENDING_MAX} pending.
 */
export async function createRequest(db: Db, principal: TPrincipal, raw: TAuthzRequestInput, nowMs: number): Promise<TAuthzRequest> {
  if (principal.level !== 'user') throw forbidden('vendors and admins hold every device of their tenant already');
  const input = ZAuthzRequestInput.parse(raw);
  const named = input.device;
  // Serial numbers are stored as their Tangram ID part (hex, left-padded, upper case): "a1" names 0000000000A1.
  const serial = SERIAL_TEXT.test(named) ? formatTangramPart('serial_number', named) : named;
  const matches = await db
    .select({ device: devices, method: projects.deviceAuthzMethod })
    .from(devices)
    .innerJoin(projects, eq(projects.id, devices.projectId))
    .where(and(eq(devices.tenantId, principal.tenantId), or(eq(devices.tangramId, named.toUpperCase()), eq(devices.serialNumber, serial))))
    .limit(2);
  if (matches.length === 0) throw notFound('device');
  const exact = matches.find((m) => m.device.tangramId === named.toUpperCase());
  if (!exact && matches.length > 1) throw conflict('several devices have this serial number: use the Tangram ID');
  const { device, method } = exact ?? matches[0];
  await checkProof(db, method, device, input.proof, nowMs);

  const held =
    input.target === 'device'
      ? await db
          .select({ id: devices.id })
          .from(devices)
          .where(and(eq(devices.id, device.id), visibleDevicesCondition(principal)))
      : await db
          .select({ id: projectAuthz.projectId })
          .from(projectAuthz)
          .where(and(eq(projectAuthz.projectId, device.projectId), eq(projectAuthz.accountId, principal.accountId)));
  if (held.length > 0) throw conflict(`you already have access to this ${input.target}`, ErrorCode.AuthzAlreadyGranted);
  const [{ pending }] = await db
    .select({ pending: count() })
    .from(authzRequests)
    .where(and(eq(authzRequests.accountId, principal.accountId), eq(authzRequests.status, 'pending')));
  if (Number(pending) >= AUTHZ_PENDING_MAX) {
    throw conflict(`at most ${AUTHZ_PENDING_MAX} requests may wait for an answer`, ErrorCode.AuthzState);
  }
  try {
    const [created] = await db
      .insert(authzRequests)
      .values({
        tenantId: principal.tenantId,
        accountId: principal.accountId,
        target: input.target,
        deviceId: input.target === 'device' ? device.id : null,
        projectId: device.projectId,
        method,
        message: input.message,
        createdAt: nowMs,
      })
      .returning({ id: authzRequests.id });
    return await requestOf(db, principal, created.id);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('the same request is already waiting for an answer', ErrorCode.AuthzState);
    throw err;
  }
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
  const isOwner = principal.level !== 'user';
  if (decision === 'cancel' ? before.requester.account_id !== principal.accountId : !isOwner) {
    throw forbidden(decision === 'cancel' ? 'only the requester cancels a request' : 'only the owner answers a request');
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
      if (row.target === 'project') {
        await tx.insert(projectAuthz).values({ projectId: row.projectId, accountId: row.accountId }).onConflictDoNothing();
      } else {
        if (row.deviceId === null) throw new AppError(409, ErrorCode.AuthzState, 'the device of this request was deleted');
        await tx.insert(deviceAuthz).values({ deviceId: row.deviceId, accountId: row.accountId }).onConflictDoNothing();
      }
      return row.accountId;
    }
    if (decision === 'revoke') {
      if (row.target === 'project') {
        await tx.delete(projectAuthz).where(and(eq(projectAuthz.projectId, row.projectId), eq(projectAuthz.accountId, row.accountId)));
      } else if (row.deviceId !== null) {
        await tx.delete(deviceAuthz).where(and(eq(deviceAuthz.deviceId, row.deviceId), eq(deviceAuthz.accountId, row.accountId)));
      }
      return row.accountId;
    }
    return decision === 'deny' ? row.accountId : null;
  });
  return { request: await requestOf(db, principal, id), tellRequester: changed };
}

/**
 * GET device-authz: the requests `principal` may read (vendors: the tenant's; users: their own), newest first,
 * filtered by state, target, creation period and `q` (requester email, device name or Tangram ID, project name).
 */
export async function listRequests(db: Db, principal: TPrincipal, query: TAuthzRequestQuery): Promise<TPage<TAuthzRequest>> {
  const like = query.q ? `%${query.q}%` : null;
  const where = and(
    readableBy(principal),
    query.status ? eq(authzRequests.status, query.status) : undefined,
    query.target ? eq(authzRequests.target, query.target) : undefined,
    query.from !== undefined ? gte(authzRequests.createdAt, Number(query.from)) : undefined,
    query.to !== undefined ? lte(authzRequests.createdAt, Number(query.to)) : undefined,
    like
      ? or(ilike(accounts.email, like), ilike(devices.name, like), ilike(devices.tangramId, like), ilike(projects.name, like))
      : undefined,
  );
  return pageOf(
    query,
    db
      .select({ total: count() })
      .from(authzRequests)
      .innerJoin(projects, eq(projects.id, authzRequests.projectId))
      .innerJoin(accounts, eq(accounts.id, authzRequests.accountId))
      .leftJoin(devices, eq(devices.id, authzRequests.deviceId))
      .where(where),
    (limit, offset) => selectRequests(db).where(where).orderBy(desc(authzRequests.id)).limit(limit).offset(offset),
    present,
  );
}

/** GET users: who holds access through an allowed request of the tenant, newest first; `q` filters by email. */
export async function listHolders(
  db: Db,
  principal: TPrincipal,
  query: { page: number; limit: number; q?: string },
): Promise<TPage<TAuthzHolder>> {
  const where = and(
    eq(authzRequests.tenantId, principal.tenantId),
    eq(authzRequests.status, 'allowed'),
    query.q ? ilike(accounts.email, `%${query.q}%`) : undefined,
  );
  return pageOf(
    query,
    db.select({ total: count() }).from(authzRequests).innerJoin(accounts, eq(accounts.id, authzRequests.accountId)).where(where),
    (limit, offset) => selectRequests(db).where(where).orderBy(desc(authzRequests.decidedAt)).limit(limit).offset(offset),
    (row) => {
      const r = present(row);
      return {
        request_id: r.id,
        account_id: r.requester.account_id,
        email: r.requester.email,
        target: r.target,
        device: r.device,
        project: r.project,
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
