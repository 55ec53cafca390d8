/**
 * Who may read platform rules (spec §1 "vendors and users view … platform rules"; docs/platform-rules.md "Who sees
 * what"): vendors and admins of the tenant; users only when their feature codes grant the platform-rule section
 * (code 11), and then only the rule list and the platform-rule alerts they may see — what a flow does (its graph,
 * runs, trace) and every change stay with vendors.
 */
import { requireSection } from '../../core/principal.js';

/** preHandler: 401 without a login; 403 for a user whose feature codes grant no platform-rule page. */
export const requirePlatformRuleViewer = requireSection('platformRule', { usersOnly: true });
