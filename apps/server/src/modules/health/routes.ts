/** GET /healthz: `200 {status, db, broker, ingest}` (issue 2), 503 when a part is down or ingest is stalled. */
import { ZHealth } from '@tessera/contracts';
import type { TApp } from '../../core/app.js';
import type { TAppContext } from '../../core/context.js';

/** Health route. Public. */
export async function healthRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  app.get('/healthz', { schema: { tags: ['health'], response: { 200: ZHealth, 503: ZHealth } } }, async (_req, reply) => {
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
    };
    return reply.status(body.status === 'ok' ? 200 : 503).send(body);
  });
}
