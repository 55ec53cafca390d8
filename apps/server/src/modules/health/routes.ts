/**
 * GET /healthz (docs/deployment.md "Health"): `200 {status: "ok", db, broker, ingest}` when all are up, 503 with the
 * part that is down (or `ingest: "stalled"`) otherwise; with DEVICE_HTTP_PORT set, `device_http` says whether that port
 * listens (not part of `status`). Answers within a second whatever the database does: the
 * database's ping has its own deadline (db/client.ts DB_PING_DEADLINE_MS), and a database that does not answer in
 * time counts as down.
 */
import { ZHealth } from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';

/** Health route. Public. */
export async function healthRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  app.get('/healthz', { schema: { tags: ['health'], security: [], response: { 200: ZHealth, 503: ZHealth } } }, async (_req, reply) => {
    const dbUp = await ctx.database.ping();
    const brokerUp = ctx.bus.isUp();
    const ingestStalled = ctx.bus.ingestBacklog().stalled;
    const body = {
      status: dbUp && brokerUp && !ingestStalled ? ('ok' as const) : ('degraded' as const),
      db: dbUp ? ('ok' as const) : ('down' as const),
      broker: brokerUp ? ('ok' as const) : ('down' as const),
      ingest: ingestStalled ? ('stalled' as const) : ('ok' as const),
      db_kind: ctx.database.kind,
      broker_kind: ctx.config.mqttUrl ? ('external' as const) : ('embedded' as const),
      ...(ctx.deviceHttp ? { device_http: ctx.deviceHttp.isUp() ? ('ok' as const) : ('down' as const) } : {}),
    };
    return reply.status(body.status === 'ok' ? 200 : 503).send(body);
  });
}
