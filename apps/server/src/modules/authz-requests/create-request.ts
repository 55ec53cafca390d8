/**
 * Asking (spec §4 "Authorisation requests for devices, projects and machines"; §7 `POST client`;
 * docs/decisions/authorisation.md "What is asked for"): a user names a device (Tangram ID or serial number), its
 * project or a machine (serial number or name), with the proof the project's method asks for; the request waits,
 * pending, for its owner's or manager's answer (requests.ts).
 */
import {
  AUTHZ_PENDING_MAX,
  ErrorCode,
  formatTangramPart,
  TANGRAM_PART_WIDTHS,
  type TAuthzRequest,
  type TAuthzRequestInput,
  ZAuthzRequestInput,
} from '@tessera/contracts';
import { and, count, eq, or, sql } from 'drizzle-orm';
import { conflict, forbidden, notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { isUniqueViolation } from '../../db/sql-helpers.js';
import { authzRequests, devices, machineAuthz, machines, projectAuthz, projects } from '../../db/schema.js';
import { visibleDevicesCondition } from '../devices/access.js';
import { checkProof } from './proofs.js';
import { requestOf } from './requests.js';

const SERIAL_TEXT = new RegExp(`^[0-9A-Fa-f]{1,${TANGRAM_PART_WIDTHS.serial_number}}$`);

/**
 * POST client: `principal` (a user) asks for `raw.device` (Tangram ID or serial number in its tenant), or with
 * `target: project` for every device of its project, or with `target: machine` for the machine it names.
 * @throws AppError 403 for vendors and admins (they hold every device of the tenant); 404 for an unknown device;
 * 409 CONFLICT when a serial number names several devices; 400 AUTHZ_PROOF_REQUIRED / AUTHZ_PROOF_INVALID (proofs.ts);
 * 409 AUTHZ_ALREADY_GRANTED when it already holds the target; 409 AUTHZ_STATE when the same request is pending or it
 * has {@link AUTHZ_PENDING_MAX} pending.
 */
export async function createRequest(db: Db, principal: TPrincipal, raw: TAuthzRequestInput, nowMs: number): Promise<TAuthzRequest> {
  if (principal.level !== 'user') throw forbidden('vendors and admins hold every device of their tenant already');
  const input = ZAuthzRequestInput.parse(raw);
  if (input.target === 'machine') return createMachineRequest(db, principal, input.device, input.message, nowMs);
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
  return insertRequest(db, principal, {
    target: input.target,
    deviceId: input.target === 'device' ? device.id : null,
    projectId: device.projectId,
    machineId: null,
    method,
    message: input.message,
    createdAt: nowMs,
  });
}

/**
 * A machine request: `named` is the machine's serial number or name (ignoring case) in the caller's tenant; no proof.
 * @throws AppError 404 for an unknown machine; 409 CONFLICT when the text names several; 409 AUTHZ_ALREADY_GRANTED
 * when the caller holds the machine through an earlier request; the pending limits of {@link insertRequest}.
 */
async function createMachineRequest(db: Db, principal: TPrincipal, named: string, message: string, nowMs: number): Promise<TAuthzRequest> {
  const found = await db
    .select({ id: machines.id, serial: machines.serialNumber })
    .from(machines)
    .where(
      and(
        eq(machines.tenantId, principal.tenantId),
        or(sql`lower(${machines.serialNumber}) = lower(${named})`, sql`lower(${machines.name}) = lower(${named})`),
      ),
    )
    .limit(3);
  if (found.length === 0) throw notFound('machine');
  const bySerial = found.filter((m) => m.serial.toLowerCase() === named.toLowerCase());
  const candidates = bySerial.length > 0 ? bySerial : found;
  if (candidates.length > 1) throw conflict('several machines match: use the serial number');
  const machineId = candidates[0].id;
  const [held] = await db
    .select({ id: machineAuthz.machineId })
    .from(machineAuthz)
    .where(and(eq(machineAuthz.machineId, machineId), eq(machineAuthz.accountId, principal.accountId)));
  if (held) throw conflict('you already have access to this machine', ErrorCode.AuthzAlreadyGranted);
  return insertRequest(db, principal, {
    target: 'machine',
    deviceId: null,
    projectId: null,
    machineId,
    method: 'all',
    message,
    createdAt: nowMs,
  });
}

/**
 * Stores a pending request of `principal`.
 * @throws AppError 409 AUTHZ_STATE when the same request is pending or it has {@link AUTHZ_PENDING_MAX} pending.
 */
async function insertRequest(
  db: Db,
  principal: TPrincipal,
  values: Omit<typeof authzRequests.$inferInsert, 'tenantId' | 'accountId'>,
): Promise<TAuthzRequest> {
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
      .values({ ...values, tenantId: principal.tenantId, accountId: principal.accountId })
      .returning({ id: authzRequests.id });
    return await requestOf(db, principal, created.id);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('the same request is already waiting for an answer', ErrorCode.AuthzState);
    throw err;
  }
}
