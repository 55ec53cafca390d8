/** Response shape of a project (contracts' ZProject, spec §3 "Project"). Never a raw row. */
import type { TProject } from '@tessera/contracts';
import type { projects } from '../../db/schema.js';

/** A project row with its product name, hardware module and device count. */
export interface TProjectView {
  project: typeof projects.$inferSelect;
  productName: string;
  moduleName: string;
  deviceCount: number;
}

/**
 * The MQTT topic pattern the project's devices publish under (spec §3 `mqtt_src`, not shown; decision in
 * docs/decisions/catalogue.md).
 */
export const MQTT_SRC = 'devices/{tangramId}';

/** A project view → ZProject. `tangram` names the hardware module (§3 `tangram {product, CoreProductId}`). */
export function presentProject(view: TProjectView): TProject {
  const p = view.project;
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    device_authz_method: p.deviceAuthzMethod,
    product_id: p.productId,
    product_name: view.productName,
    tangram: { product: view.moduleName, CoreProductId: p.tangramProductId },
    mqtt_src: MQTT_SRC,
    rule_type: p.ruleType,
    renotify_interval_s: p.ruleRenotifyS,
    status_groups: p.statusGroups,
    device_count: view.deviceCount,
    created_at: p.createdAt,
  };
}
