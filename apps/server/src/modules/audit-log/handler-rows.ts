/**
 * What a route's handler hands to the audit hooks so that they need not read the entity, or write the entry, themselves
 * (docs/decisions/audit-log.md "Cost"). Two ways, each named by the route's spec:
 *
 * - `handlerRows`: the handler reports the entity's rows before and after its change (today only a change that set
 *   nothing reports, through `unchanged`); no snapshot is read and the entry is made of those two.
 * - `inStatement`: the hooks hand the handler the entry (who, acting admin, address, route, entity) before it runs
 *   ({@link changeAuditOf}); the handler's UPDATE writes it in the same statement (audited-update.ts), atomic with the
 *   change, and the hooks write nothing after the answer. A handler that changes nothing reports the row it read
 *   (`unchanged`) and the hooks write the entry, with no changed fields, as for `handlerRows`.
 */
import type { FastifyRequest } from 'fastify';
import type { TStatementEntry } from './record.js';

/** The entity's row (Drizzle's property names) before and after the change; the same row twice when nothing changed. */
export interface THandlerRows {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

const reported = new WeakMap<FastifyRequest, THandlerRows>();

/** The rows `request`'s handler reported, or undefined when it reported none. */
export function reportedRows(request: FastifyRequest): THandlerRows | undefined {
  return reported.get(request);
}

/** The audit of one change whose entry the change's own statement writes (a route whose spec says `inStatement`). */
export interface TChangeAudit {
  /** The entry, stamped now (`at`, epoch ms): what the change's statement writes beside its changed fields. */
  entry(): TStatementEntry;
  /** Tells the hooks that the change's statement wrote the entry (it committed): they write none. */
  written(): void;
  /** Tells the hooks that the handler changed nothing, `row` being the entity as it read it: they write the entry. */
  unchanged(row: Record<string, unknown>): void;
}

interface TOffered {
  entry: TStatementEntry;
  written: boolean;
}
const offered = new WeakMap<FastifyRequest, TOffered>();

/**
 * Called by the hooks before the handler of an `inStatement` route runs: `entry` (without `at`) is what its change's
 * statement is to write.
 */
export function offerStatementEntry(request: FastifyRequest, entry: TStatementEntry): void {
  offered.set(request, { entry, written: false });
}

/** True when `request`'s change wrote its entry in its own statement. */
export function statementWroteEntry(request: FastifyRequest): boolean {
  return offered.get(request)?.written === true;
}

/**
 * The audit of `request`'s change for its handler, or undefined when the audit log is off (then the change writes no
 * entry: AUDIT_LOG=0 registers no hooks, so nothing is offered) or the route's spec does not say `inStatement`.
 */
export function changeAuditOf(request: FastifyRequest): TChangeAudit | undefined {
  const offer = offered.get(request);
  if (!offer) return undefined;
  return {
    entry: () => ({ ...offer.entry, at: Date.now() }),
    written: () => {
      offer.written = true;
    },
    unchanged: (row) => {
      reported.set(request, { before: row, after: row });
    },
  };
}
