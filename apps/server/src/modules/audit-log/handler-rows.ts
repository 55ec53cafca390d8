/**
 * Rows a route's handler already read and wrote, handed to the audit hooks so that they need not read the entity
 * again (docs/decisions/audit-log.md "Cost"). A route whose spec says `handlerRows` gets no snapshot read before
 * it; its handler reports the entity's row as it read it just before the change and the row the change returned
 * (`UPDATE … RETURNING`: exactly what is stored), and the entry is made of those two.
 */
import type { FastifyRequest } from 'fastify';

/** The entity's row (Drizzle's property names) before and after the change; the same row twice when nothing changed. */
export interface THandlerRows {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

const reported = new WeakMap<FastifyRequest, THandlerRows>();

/** What a handler calls with its rows: `(before, after)`. */
export type TReportRows<TRow> = (before: TRow, after: TRow) => void;

/**
 * The function through which `request`'s handler reports the entity's rows before and after its change, for the
 * audit entry. Costs a map entry when the audit log is off.
 */
export function auditRowsOf<TRow extends Record<string, unknown>>(request: FastifyRequest): TReportRows<TRow> {
  return (before, after) => {
    reported.set(request, { before, after });
  };
}

/** The rows `request`'s handler reported, or undefined when it reported none. */
export function reportedRows(request: FastifyRequest): THandlerRows | undefined {
  return reported.get(request);
}
