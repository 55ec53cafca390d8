/**
 * The alerts feature gate (spec §2 menu "5 alerts", §6 "Access also depends on feature codes"): the alerts API
 * answers accounts whose `fea` grants the alerts section or one of its pages, as the console's route guard does.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MENU_SECTIONS, hasFeature } from '@tessera/contracts';
import { forbidden } from '../../core/errors.js';
import { principalOf, requireAuth } from '../../core/principal.js';

const ALERT_PAGE_CODES = MENU_SECTIONS.find((s) => s.key === 'alerts')?.pages.map((p) => p.code) ?? ['5'];

/** preHandler: 401 without a login; 403 when the account's feature codes grant no alerts page. */
export async function requireAlertsFeature(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await requireAuth(request, reply);
  const { fea } = principalOf(request);
  if (!ALERT_PAGE_CODES.some((code) => hasFeature(fea, code))) throw forbidden('the alerts feature is not granted to this account');
}
