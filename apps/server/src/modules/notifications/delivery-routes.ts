/**
 * `/frontstage-alert/v1/alerts/{id}/deliveries`: the mail and LINE
 * deliveries of one alert. Any account with the alerts feature (403 without) that may see the alert (404 otherwise).
 */
import { ZAlertDeliveries, ZIdParam } from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf } from '../../core/principal.js';
import { requireAlertsFeature } from '../alerts/feature.js';
import { listAlertDeliveries } from './deliveries.js';

/** Registers the deliveries route (prefix `/frontstage-alert/v1`). */
export async function alertDeliveryRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  app.get(
    '/alerts/:id/deliveries',
    { preHandler: requireAlertsFeature, schema: { tags: ['alerts'], params: ZIdParam, response: { 200: ZAlertDeliveries } } },
    (req) => listAlertDeliveries(ctx.db, principalOf(req), req.params.id),
  );
}
