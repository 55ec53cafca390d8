/**
 * The one mechanism that records changes (docs/decisions/audit-log.md "How"): when a route is registered, a mutating
 * one (POST, PUT, PATCH, DELETE) gets two hooks of its own — after its auth and validation, a preHandler reads the
 * entity's snapshot before the change; when it answers with success, an onSend reads the snapshot after and writes the
 * entry before the answer leaves. Which entity, id and snapshot: audited-routes.ts. No handler changes, but where a
 * route's spec says `handlerRows`: there the handler reports the rows it read and wrote (handler-rows.ts) and neither
 * read is made; and where it says `inStatement`, the hooks hand the handler the entry before it runs and its UPDATE
 * writes it (audited-update.ts). Reads and ingest are never recorded.
 */
import type { FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler, RouteOptions } from 'fastify';
import type { Logger } from 'pino';
import type { TApp } from '../../core/app-type.js';
import type { Db } from '../../db/client.js';
import { AUDITED_ROUTES, UNAUDITED_PREFIXES, UNAUDITED_ROUTES } from './audited-routes.js';
import { defaultAuditRoute } from './default-route.js';
import { bodyChanges, diffFields } from './changes.js';
import { LOGIN_ROUTE, loginEntry } from './login-audit.js';
import { AuditWriter } from './audit-writer.js';
import { offerStatementEntry, reportedRows, statementWroteEntry } from './handler-rows.js';
import type { TAuditEntryInput } from './record.js';
import type { TAuditRoute, TIdSource } from './route-spec.js';
import { accountByEmail, type TSnapshot } from './snapshots.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** How a registered route is audited: not at all, as a login, or by its spec. */
export type TRouteAudit = null | 'login' | TAuditRoute;

/** How `method url` (the full path template) is audited. */
export function auditOf(method: string, url: string): TRouteAudit {
  if (!MUTATING.has(method)) return null;
  const key = `${method} ${url}`;
  if (key === LOGIN_ROUTE) return 'login';
  if (UNAUDITED_ROUTES.has(key) || UNAUDITED_PREFIXES.some((p) => url.startsWith(p))) return null;
  return AUDITED_ROUTES[key] ?? defaultAuditRoute(method, url);
}

/** What the preHandler found, for the onSend of the same request. */
interface TPending {
  before: TSnapshot | null;
}
const pending = new WeakMap<FastifyRequest, TPending>();

const asArray = <T>(hook: T | T[] | undefined): T[] => (hook === undefined ? [] : Array.isArray(hook) ? hook : [hook]);

/** The parsed JSON object of an answer, else null (only creations need it, for the new entity's id). */
function parseAnswer(payload: unknown): unknown {
  if (typeof payload !== 'string' || !payload.startsWith('{')) return null;
  try {
    return JSON.parse(payload);
  } catch {
    return null;
  }
}

function idSource(request: FastifyRequest, answer: unknown): TIdSource {
  return {
    params: (request.params ?? {}) as Record<string, unknown>,
    body: request.body,
    answer,
    accountId: request.principal?.accountId ?? null,
    tenantId: request.principal?.tenantId ?? null,
  };
}

/** The caller as an entry's actor, acting admin and tenant. */
function principalActor(p: NonNullable<FastifyRequest['principal']>): Pick<TAuditEntryInput, 'actor' | 'actingAdmin' | 'tenantId'> {
  return { actor: { accountId: p.accountId, email: p.email, via: p.via }, actingAdmin: p.actingAdmin ?? null, tenantId: p.tenantId };
}

/** Who made the change: the caller, or (no login yet: sign-up, password reset) the account of the body's e-mail. */
async function actorOf(db: Db, request: FastifyRequest): Promise<Pick<TAuditEntryInput, 'actor' | 'actingAdmin' | 'tenantId'>> {
  if (request.principal) return principalActor(request.principal);
  const email = (request.body as { email?: unknown } | undefined)?.email;
  const account = typeof email === 'string' ? await accountByEmail(db, email) : null;
  return {
    actor: { accountId: account?.id ?? null, email: typeof email === 'string' ? email.trim().toLowerCase() : null, via: null },
    actingAdmin: null,
    tenantId: account?.tenantId ?? null,
  };
}

/** The entity's snapshots before and after the change: the rows its handler reported, else read by id. */
async function snapshotsOf(
  db: Db,
  log: Logger,
  request: FastifyRequest,
  spec: TAuditRoute,
  id: string | null,
): Promise<{ before: TSnapshot | null; after: TSnapshot | null }> {
  if (spec.handlerRows) {
    const rows = reportedRows(request);
    if (rows) return { before: spec.handlerRows(rows.before), after: spec.handlerRows(rows.after) };
    log.error(
      { route: request.routeOptions.url, requestId: request.id },
      'audit: the handler reported no rows; entry made from a read after',
    );
  }
  const before = pending.get(request)?.before ?? null;
  // A deletion's entity is gone: no read after it.
  const readAfter = spec.snapshot && id !== null && spec.action !== 'delete';
  const after = readAfter && spec.snapshot ? await spec.snapshot(db, { id, accountId: request.principal?.accountId ?? null }) : null;
  return { before, after };
}

/** The entry of a change `spec` describes, answered with success. */
async function changeEntry(
  db: Db,
  log: Logger,
  request: FastifyRequest,
  spec: TAuditRoute,
  payload: unknown,
  route: string,
): Promise<TAuditEntryInput> {
  const id = spec.id(idSource(request, parseAnswer(payload)));
  const { before, after } = await snapshotsOf(db, log, request, spec, id);
  const diff = spec.snapshot ? diffFields(before?.fields ?? null, after?.fields ?? null) : {};
  const changes = spec.withBody || !spec.snapshot ? { ...bodyChanges(request.body), ...diff } : diff;
  const who = await actorOf(db, request);
  return {
    ...who,
    tenantId: after?.tenantId ?? before?.tenantId ?? who.tenantId,
    ip: request.ip,
    entityType: spec.entity,
    entityId: id,
    action: spec.action,
    changes,
    route,
    requestId: request.id,
  };
}

function readBefore(db: Db, spec: TAuditRoute): preHandlerHookHandler {
  return async function readAuditSnapshot(request: FastifyRequest) {
    const id = spec.snapshot ? spec.id(idSource(request, null)) : null;
    const before = spec.snapshot && id !== null ? await spec.snapshot(db, { id, accountId: request.principal?.accountId ?? null }) : null;
    pending.set(request, { before });
  };
}

/** Offers an `inStatement` route's handler its entry (no principal: none, and the entry is made after the answer). */
function offerEntry(spec: TAuditRoute, route: string): preHandlerHookHandler {
  return async function offerAuditEntry(request: FastifyRequest) {
    if (!request.principal) return;
    offerStatementEntry(request, {
      ...principalActor(request.principal),
      ip: request.ip,
      entityType: spec.entity,
      entityId: spec.id(idSource(request, null)),
      action: spec.action,
      route,
      requestId: request.id,
    });
  };
}

function writeEntry(db: Db, writer: AuditWriter, log: Logger, audit: 'login' | TAuditRoute, route: string): onSendHookHandler {
  return async function writeAuditEntry(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const status = reply.statusCode;
    if (audit !== 'login' && (status >= 400 || statementWroteEntry(request))) return payload;
    try {
      const entry =
        audit === 'login'
          ? await loginEntry(db, { body: request.body, ip: request.ip, route, requestId: request.id }, status, payload)
          : await changeEntry(db, log, request, audit, payload, route);
      if (entry) await writer.write(entry);
    } catch (err) {
      // The change has committed; a lost entry is logged loudly rather than failing an answer that is true.
      log.error({ err, route, requestId: request.id }, 'audit entry not written');
    }
    return payload;
  };
}

/**
 * Registers the audit hooks on `app`: every mutating route registered after this call is audited as auditOf() says.
 * Call before the modules register their routes.
 */
export function registerAuditHooks(app: TApp, db: Db, log: Logger): void {
  const writer = new AuditWriter(db);
  app.addHook('onRoute', (route: RouteOptions) => {
    const method = asArray(route.method).find((m) => MUTATING.has(m));
    if (!method) return;
    const audit = auditOf(method, route.url);
    if (!audit) return;
    const name = `${method} ${route.url}`;
    if (audit !== 'login' && !audit.handlerRows) route.preHandler = [...asArray(route.preHandler), readBefore(db, audit)];
    if (audit !== 'login' && audit.inStatement) route.preHandler = [...asArray(route.preHandler), offerEntry(audit, name)];
    route.onSend = [...asArray(route.onSend), writeEntry(db, writer, log, audit, name)];
  });
}
