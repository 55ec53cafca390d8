/**
 * How a mutating route that audited-routes.ts does not list is recorded (docs/decisions/audit-log.md "How"), so a route
 * added later is recorded before anyone lists it.
 */
import { device, platformRule, product, project } from './audited-routes.js';
import { noId, param, type TAuditRoute } from './route-spec.js';
import type { TSnapshotLoader } from './snapshots.js';

/** Path segments (after the version) that name an entity, for routes the table does not list. */
const ENTITY_BY_SEGMENT: Readonly<Record<string, { entity: string; snapshot?: TSnapshotLoader }>> = {
  products: { entity: 'product', snapshot: product },
  projects: { entity: 'project', snapshot: project },
  devices: { entity: 'device', snapshot: device },
  rules: { entity: 'platform_rule', snapshot: platformRule },
};

const ACTION_BY_METHOD: Readonly<Record<string, string>> = { POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };

/**
 * How a mutating route that the table does not list is recorded: the entity named by the first path segment after
 * the version (`/frontstage/v1/projects/:id/settings` → project, with the project's snapshot), its id the first path
 * parameter, the action by method, and the request's fields. So a route added later is recorded before anyone lists it.
 */
export function defaultAuditRoute(method: string, url: string): TAuditRoute {
  const segments = url.split('/').filter(Boolean);
  const version = segments.findIndex((s) => /^v\d+$/.test(s));
  const rest = segments.slice(version + 1);
  const first = rest.find((s) => !s.startsWith(':')) ?? 'route';
  const firstParam = rest.find((s) => s.startsWith(':'))?.slice(1);
  const known = ENTITY_BY_SEGMENT[first];
  const id = firstParam ? param(firstParam) : noId;
  const snapshot = firstParam && rest.indexOf(`:${firstParam}`) === rest.indexOf(first) + 1 ? known?.snapshot : undefined;
  return { entity: known?.entity ?? first, action: ACTION_BY_METHOD[method] ?? method.toLowerCase(), id, snapshot, withBody: true };
}
