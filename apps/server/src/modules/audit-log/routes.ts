/**
 * `/frontstage/v1/audit-log` (docs/decisions/audit-log.md "API"): the entries a vendor's tenant or (admin) every
 * tenant has, paged and filtered, and the same selection as CSV. Vendors and admins with the audit-log section
 * (feature code 14); users are refused (403).
 */
import { ZAuditPage, ZAuditQuery } from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireSection, requireVendor } from '../../core/principal.js';
import { prepareAuditCsv } from './download.js';
import { listAuditLog } from './list.js';

const tags = ['audit-log'];
const guard = { preHandler: [requireVendor, requireSection('auditLog')] };

/** Registers the audit-log routes (prefix `/frontstage/v1`). */
export async function auditLogRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db } = ctx;
  app.get(
    '/audit-log',
    { ...guard, schema: { tags, summary: 'Audit log entries, newest first', querystring: ZAuditQuery, response: { 200: ZAuditPage } } },
    (req) => listAuditLog(db, principalOf(req), req.query),
  );
  app.get(
    '/audit-log/download',
    {
      ...guard,
      schema: {
        tags,
        summary: 'Audit log as CSV',
        querystring: ZAuditQuery,
        description: 'CSV (text/csv) of the filtered entries, newest first',
      },
    },
    async (req, reply) => {
      const { filename, stream } = prepareAuditCsv(db, principalOf(req), req.query);
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`);
      return reply.send(stream);
    },
  );
}
