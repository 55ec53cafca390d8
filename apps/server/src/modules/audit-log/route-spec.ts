/**
 * How a mutating route is audited (audited-routes.ts declares one per route): which entity it changes, the action, where
 * the entity's id is, and how to read the entity's fields before and after. A route with no snapshot records the
 * request's own fields (masked) instead: commands and actions whose effect is not a row.
 */
import type { TSnapshot, TSnapshotLoader } from './snapshots.js';

/** What the id reader sees: the path parameters, the body, the parsed answer (creations), the caller. */
export interface TIdSource {
  params: Record<string, unknown>;
  body: unknown;
  answer: unknown;
  accountId: number | null;
  tenantId: number | null;
}

/** Reads the entity's id (as text) from a request; null when it has none. */
export type TIdReader = (source: TIdSource) => string | null;

/** One audited route. */
export interface TAuditRoute {
  entity: string;
  action: string;
  id: TIdReader;
  snapshot?: TSnapshotLoader;
  /** Keep the request's fields (masked) beside the snapshot's diff: actions whose parameters are the change. */
  withBody?: boolean;
  /**
   * The handler reports the entity's rows before and after its change (handler-rows.ts): no snapshot is read, the
   * entry is made of those rows through this (the snapshot loader's `fromRow`). `snapshot` still reads the rows of a
   * handler that answered 2xx without reporting (none should; it is logged).
   */
  handlerRows?: (row: Record<string, unknown>) => TSnapshot;
  /**
   * The handler's change writes the entry in its own statement (handler-rows.ts `changeAuditOf`, audited-update.ts):
   * the hooks hand it the entry before it runs and write none after. A handler that changes nothing reports its row
   * instead, as for `handlerRows` (which such a route also names).
   */
  inStatement?: boolean;
}

const text = (value: unknown): string | null => (typeof value === 'string' || typeof value === 'number' ? String(value) : null);
const field = (from: unknown, name: string): unknown =>
  from !== null && typeof from === 'object' ? (from as Record<string, unknown>)[name] : undefined;

/** The id is path parameter `name`. */
export const param =
  (name: string): TIdReader =>
  (s) =>
    text(s.params[name]);
/** The id is body field `name`. */
export const bodyField =
  (name: string): TIdReader =>
  (s) =>
    text(field(s.body, name));
/** The id is the answer's field `name` (a creation answers the new entity). */
export const answerField =
  (name: string): TIdReader =>
  (s) =>
    text(field(s.answer, name));
/** The entity is the caller's tenant (one row per tenant: engine config, LINE official account). */
export const callerTenant: TIdReader = (s) => text(s.tenantId);
/** The entity is the caller's own account (profile, password). */
export const callerAccount: TIdReader = (s) => text(s.accountId);
/** No id. */
export const noId: TIdReader = () => null;
