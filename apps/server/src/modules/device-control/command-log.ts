/**
 * The remote-control audit log (docs/decisions/device-control.md "Audit"): every command the console sends is a
 * `device_commands` row — who, when, which command and params, how it ended, the round trip. A vendor reads every
 * command of its device, a user only its own.
 */
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { TDeviceCommandLog, TListQuery, TPage } from '@tessera/contracts';
import type { TPrincipal } from '../../core/principal.js';
import { pageOf } from '../../db/paging.js';
import type { Db } from '../../db/client.js';
import { deviceCommands } from '../../db/schema.js';
import type { TCommand, TCommandExchange } from './command-channel.js';

type TCommandRow = typeof deviceCommands.$inferSelect;

/** What one audit row records. `sentAt` is epoch ms when the command was sent. */
export interface TCommandRecord {
  reqId: string;
  tenantId: number;
  deviceId: number;
  principal: TPrincipal;
  command: TCommand;
  exchange: TCommandExchange;
  sentAt: number;
}

/** Stores one audit row. */
export async function recordCommand(db: Db, r: TCommandRecord): Promise<void> {
  const { exchange } = r;
  await db.insert(deviceCommands).values({
    reqId: r.reqId,
    tenantId: r.tenantId,
    deviceId: r.deviceId,
    accountId: r.principal.accountId,
    accountEmail: r.principal.email,
    name: r.command.name,
    params: r.command.params,
    outcome: exchange.outcome,
    error: exchange.outcome === 'device_error' ? exchange.error : null,
    latencyMs: 'latencyMs' in exchange ? exchange.latencyMs : null,
    createdAt: r.sentAt,
  });
}

/** An audit row → ZDeviceCommandLog. */
export function presentCommand(row: TCommandRow): TDeviceCommandLog {
  return {
    req_id: row.reqId,
    name: row.name,
    params: row.params,
    outcome: row.outcome,
    error: row.error,
    latency_ms: row.latencyMs,
    account_email: row.accountEmail,
    created_at: row.createdAt,
  };
}

/** A page of the commands sent to device `deviceId`, newest first; a user sees only the commands it sent. */
export async function listCommands(db: Db, principal: TPrincipal, deviceId: number, query: TListQuery): Promise<TPage<TDeviceCommandLog>> {
  const where: SQL | undefined = and(
    eq(deviceCommands.deviceId, deviceId),
    principal.level === 'user' ? eq(deviceCommands.accountId, principal.accountId) : undefined,
  );
  return pageOf(
    query,
    db.select({ total: count() }).from(deviceCommands).where(where),
    (limit, offset) =>
      db
        .select()
        .from(deviceCommands)
        .where(where)
        .orderBy(desc(deviceCommands.createdAt), desc(deviceCommands.reqId))
        .limit(limit)
        .offset(offset),
    presentCommand,
  );
}
