/**
 * The alerts feature gate (spec §2 menu "5 alerts", §6 "Access also depends on feature codes"): the alerts API
 * answers accounts whose `fea` grants the alerts section or one of its pages, as the console's route guard does.
 */
import { requireSection } from '../../core/principal.js';

/** preHandler: 401 without a login; 403 when the account's feature codes grant no alerts page. */
export const requireAlertsFeature = requireSection('alerts');
