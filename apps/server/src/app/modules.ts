/** Registers every module's routes under its spec prefix (spec §7). One line per module. */
import type { TApp } from '../core/app-type.js';
import type { TAppContext } from '../core/context.js';
import { aiModelRoutes } from '../modules/ai-models/routes.js';
import { alertRoutes } from '../modules/alerts/routes.js';
import { auditLogRoutes } from '../modules/audit-log/routes.js';
import { assistantRoutes } from '../modules/assistant/routes.js';
import { authRoutes } from '../modules/auth/routes.js';
import { authzRequestRoutes } from '../modules/authz-requests/routes.js';
import { customPageRoutes, customPageViewRoutes } from '../modules/custom-pages/routes.js';
import { deviceHttpRoutes } from '../modules/device-apis/http-routes.js';
import { deviceCredentialRoutes } from '../modules/device-apis/routes.js';
import { deviceAttributeRoutes } from '../modules/attributes/routes.js';
import { deviceControlRoutes } from '../modules/device-control/routes.js';
import { deviceRoutes } from '../modules/devices/routes.js';
import { dashboardRoutes } from '../modules/dashboard/routes.js';
import { downloadRoutes } from '../modules/downloads/routes.js';
import { healthRoutes } from '../modules/health/routes.js';
import { brokerAuthRoutes } from '../modules/ingest/rabbitmq-auth.js';
import { imageRoutes } from '../modules/images/routes.js';
import { lineRoutes } from '../modules/line/routes.js';
import { lorawanRoutes } from '../modules/lorawan/routes.js';
import { lorawanWebhookRoutes } from '../modules/lorawan/webhook-routes.js';
import { machineRoutes } from '../modules/machines/routes.js';
import { deviceModelRoutes, modelRolloutRoutes } from '../modules/model-deployments/routes.js';
import { motorHealthRoutes } from '../modules/motor-health/routes.js';
import { alertDeliveryRoutes } from '../modules/notifications/delivery-routes.js';
import { notificationRoutes } from '../modules/notifications/routes.js';
import { productRoutes } from '../modules/products/routes.js';
import { platformRuleRoutes } from '../modules/platform-rules/routes.js';
import { platformTelemetryRoutes } from '../modules/platform-telemetry/routes.js';
import { packagePolicyRoutes } from '../modules/package-policy/routes.js';
import { projectRoleRoutes } from '../modules/project-roles/routes.js';
import { projectRuleRoutes } from '../modules/project-rules/routes.js';
import { projectSettingsRoutes } from '../modules/project-settings/routes.js';
import { webhookRoutes } from '../modules/webhooks/routes.js';
import { projectRoutes } from '../modules/projects/routes.js';
import { sensorRoutes } from '../modules/sensors/routes.js';
import { undeclaredKeyRoutes } from '../modules/sensors/undeclared-routes.js';
import { telemetryRoutes } from '../modules/telemetry/routes.js';
import { telemetryStorageRoutes } from '../modules/telemetry-store/routes.js';
import { webPushRoutes } from '../modules/web-push/routes.js';

type TRoutes = (app: TApp, ctx: TAppContext) => Promise<void>;

const MODULES: readonly [prefix: string, routes: TRoutes][] = [
  ['', healthRoutes],
  ['', brokerAuthRoutes],
  ['', deviceHttpRoutes],
  ['', lorawanWebhookRoutes],
  ['/authorization/v1', authRoutes],
  ['/frontstage/v1', productRoutes],
  ['/frontstage/v1', imageRoutes],
  ['/frontstage/v1', projectRoutes],
  ['/frontstage/v1', projectSettingsRoutes],
  ['/frontstage/v1', telemetryStorageRoutes],
  ['/frontstage/v1', webhookRoutes],
  ['/frontstage/v1', lorawanRoutes],
  ['/frontstage/v1', deviceRoutes],
  ['/frontstage/v1', deviceControlRoutes],
  ['/frontstage/v1', deviceCredentialRoutes],
  ['/frontstage/v1', motorHealthRoutes],
  ['/frontstage/v1', sensorRoutes],
  ['/frontstage/v1', undeclaredKeyRoutes],
  ['/frontstage/v1', projectRuleRoutes],
  ['/frontstage/v1', customPageRoutes],
  ['/frontstage/v1', deviceAttributeRoutes],
  ['/frontstage/v1', auditLogRoutes],
  ['/pages', customPageViewRoutes],
  ['/frontstage-ts/v1', telemetryRoutes],
  ['/frontstage/user/v1', projectRoleRoutes],
  ['/frontstage/user/v1', machineRoutes],
  ['/frontstage/user/v1', packagePolicyRoutes],
  ['/notification/v1', notificationRoutes],
  ['/notification/v1', lineRoutes],
  ['/notification/v1', webPushRoutes],
  ['/frontstage-alert/v1', alertDeliveryRoutes],
  ['/frontstage-alert/v1', alertRoutes],
  ['/rule-engine/v1', platformRuleRoutes],
  ['/frontstage-dc/v1', downloadRoutes],
  ['/dashboard/v1', dashboardRoutes],
  ['/frontstage-pt/v1', platformTelemetryRoutes],
  ['/client-authz/v1', authzRequestRoutes],
  ['/frontstage-ai/v1', assistantRoutes],
  ['/frontstage-ai/v1', aiModelRoutes],
  ['/frontstage-ai/v1', modelRolloutRoutes],
  ['/device/v1', deviceModelRoutes],
];

/** Registers all module routes on `app`. */
export async function registerModules(app: TApp, ctx: TAppContext): Promise<void> {
  for (const [prefix, routes] of MODULES) {
    await app.register(async (scope) => routes(scope as TApp, ctx), { prefix });
  }
}
