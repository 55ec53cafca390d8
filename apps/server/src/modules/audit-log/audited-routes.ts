/**
 * Every mutating route (POST, PUT, PATCH, DELETE) and how it is audited, in one table (docs/decisions/audit-log.md
 * "Which routes"): keyed `METHOD /full/path/:param` as Fastify names the route. A mutating route not listed here is
 * still recorded, by defaultAuditRoute (default-route.ts); {@link UNAUDITED_ROUTES} are the ones deliberately not recorded.
 * Logins are recorded by login-audit.ts (failures too).
 */
import {
  aiModelRollouts,
  aiModels,
  accounts,
  alerts,
  apiKeys,
  authzRequests,
  customPages,
  devices,
  deviceUserRules,
  downloadJobs,
  lineGroups,
  lineOfficialAccounts,
  machineConfigures,
  machines,
  platformEngineConfigs,
  platformRules,
  platformTelemetries,
  productClasses,
  products,
  projectBlocklyPrograms,
  projectBlocklySettings,
  projects,
  projectRoles,
  projectSensors,
  projectSimpleRules,
  sensorDisplay,
} from '../../db/schema.js';
import { answerField, bodyField, callerAccount, callerTenant, noId, param, type TAuditRoute } from './route-spec.js';
import {
  notificationEmailsSnapshot,
  projectSensorsSnapshot,
  roleSnapshot,
  rowBy,
  subscriptionSnapshot,
  type TSnapshotLoader,
} from './snapshots.js';

const A = '/authorization/v1';
const F = '/frontstage/v1';
const U = '/frontstage/user/v1';
const N = '/notification/v1';
const R = '/rule-engine/v1';
const AI = '/frontstage-ai/v1';

/** Snapshots shared with default-route.ts. */
export const product = rowBy(products, products.id);
const productClass = rowBy(productClasses, productClasses.id);
export const project = rowBy(projects, projects.id);
export const device = rowBy(devices, devices.tangramId, { text: true });
const sensor = rowBy(projectSensors, projectSensors.id);
const display = rowBy(sensorDisplay, sensorDisplay.sensorId);
const simpleRule = rowBy(projectSimpleRules, projectSimpleRules.id);
const program = rowBy(projectBlocklyPrograms, projectBlocklyPrograms.id);
const role = roleSnapshot(projectRoles, projectRoles.id);
export const platformRule = rowBy(platformRules, platformRules.id);
const account = rowBy(accounts, accounts.id);

/** Create (id from the answer), update and delete (id from the path) of one entity kind. */
/**
 * A device PUT (v1 and v2): its UPDATE writes the entry in the same statement (audited-update.ts); a request setting
 * nothing reports the row its handler read (handler-rows.ts). No read of its own.
 */
const deviceUpdateInStatement: TAuditRoute = {
  entity: 'device',
  action: 'update',
  id: param('tangramId'),
  snapshot: device,
  handlerRows: device.fromRow,
  inStatement: true,
};

function crud(entity: string, base: string, snapshot: TSnapshotLoader, idParam = 'id'): Record<string, TAuditRoute> {
  return {
    [`POST ${base}`]: { entity, action: 'create', id: answerField('id'), snapshot },
    [`PUT ${base}/:${idParam}`]: { entity, action: 'update', id: param(idParam), snapshot },
    [`DELETE ${base}/:${idParam}`]: { entity, action: 'delete', id: param(idParam), snapshot },
  };
}

/** The audited mutating routes. */
export const AUDITED_ROUTES: Readonly<Record<string, TAuditRoute>> = {
  // Accounts, API keys and act-as (logins: login-audit.ts).
  [`POST ${A}/register/aiot`]: { entity: 'account', action: 'create', id: noId, withBody: true },
  [`POST ${A}/reset-pwd`]: { entity: 'account', action: 'password_reset', id: bodyField('email'), withBody: true },
  [`PUT ${A}/pwd`]: { entity: 'account', action: 'password_change', id: callerAccount, snapshot: account },
  [`PUT ${A}/profile`]: { entity: 'account', action: 'update', id: callerAccount, snapshot: account },
  [`POST ${A}/security/api-key`]: { entity: 'api_key', action: 'create', id: answerField('id'), snapshot: rowBy(apiKeys, apiKeys.id) },
  [`POST ${A}/security/api-key/revoke`]: { entity: 'api_key', action: 'revoke', id: bodyField('id'), snapshot: rowBy(apiKeys, apiKeys.id) },
  [`POST ${A}/admin/account/switch`]: {
    entity: 'account',
    action: 'act_as',
    id: bodyField('account_id'),
    snapshot: account,
    withBody: true,
  },

  // Products and projects.
  ...crud('product', `${F}/products`, product),
  ...crud('product_class', `${F}/products/classes`, productClass),
  [`PUT ${F}/projects/profile/product/functions/:id`]: { entity: 'product', action: 'update', id: param('id'), snapshot: product },
  ...crud('project', `${F}/projects`, project),
  [`POST ${F}/projects/copy`]: { entity: 'project', action: 'copy', id: answerField('id'), snapshot: project, withBody: true },
  [`PUT ${F}/projects/:id/ruleType`]: { entity: 'project', action: 'update', id: param('id'), snapshot: project },
  [`PUT ${F}/:id/profile/sensorBus`]: { entity: 'project', action: 'update', id: param('id'), snapshot: project },

  // Devices and their secrets.
  [`POST ${F}/projects/:id/devices`]: { entity: 'device', action: 'create', id: answerField('tangram_id'), snapshot: device },
  [`POST ${F}/projects/:id/devices/bulk`]: { entity: 'project', action: 'create_devices', id: param('id'), withBody: true },
  [`PUT ${F}/devices/:tangramId`]: deviceUpdateInStatement,
  [`PUT ${F}/v2/devices/:tangramId`]: deviceUpdateInStatement,
  [`POST ${F}/devices/:tangramId/secret`]: { entity: 'device', action: 'rotate_secret', id: param('tangramId'), snapshot: device },
  [`POST ${F}/devices/:tangramId/remoteControl/sensorCommand`]: {
    entity: 'device',
    action: 'command',
    id: param('tangramId'),
    withBody: true,
  },
  [`POST ${F}/devices/:tangramId/clean-data`]: { entity: 'device', action: 'clean_data', id: param('tangramId'), withBody: true },
  [`PUT ${F}/devices/configFCMStatus`]: {
    entity: 'device',
    action: 'update',
    id: bodyField('tangram_id'),
    withBody: true,
  },
  ...crud('device_user_rule', `${F}/devices/:tangramId/userRules`, rowBy(deviceUserRules, deviceUserRules.id)),

  // Sensors (the configure tab).
  [`POST ${F}/:id/profile/sensors`]: { entity: 'project_sensors', action: 'update', id: param('id'), snapshot: projectSensorsSnapshot },
  [`POST ${F}/v2/:id/profile/sensors`]: { entity: 'project_sensors', action: 'update', id: param('id'), snapshot: projectSensorsSnapshot },
  [`PUT ${F}/v2/:id/profile/sensors`]: { entity: 'project_sensors', action: 'update', id: param('id'), snapshot: projectSensorsSnapshot },
  [`PUT ${F}/projects/profile/sensors/:id`]: { entity: 'sensor', action: 'update', id: param('id'), snapshot: sensor },
  [`DELETE ${F}/projects/profile/sensors/:id`]: { entity: 'sensor', action: 'delete', id: param('id'), snapshot: sensor },
  [`POST ${F}/sensorDisplay`]: { entity: 'sensor_display', action: 'create', id: answerField('sensor_id'), snapshot: display },
  [`PUT ${F}/sensorDisplay/:id`]: { entity: 'sensor_display', action: 'update', id: param('id'), snapshot: display },
  [`DELETE ${F}/sensorDisplay/:id`]: { entity: 'sensor_display', action: 'delete', id: param('id'), snapshot: display },
  [`POST ${F}/sync`]: { entity: 'project', action: 'sync', id: bodyField('project_id'), withBody: true },

  // Project rules.
  [`POST ${F}/projects/:id/rules/simples`]: { entity: 'simple_rule', action: 'create', id: answerField('id'), snapshot: simpleRule },
  [`PUT ${F}/projects/:id/rules/simples/:ruleId`]: { entity: 'simple_rule', action: 'update', id: param('ruleId'), snapshot: simpleRule },
  [`DELETE ${F}/projects/:id/rules/simples/:ruleId`]: {
    entity: 'simple_rule',
    action: 'delete',
    id: param('ruleId'),
    snapshot: simpleRule,
  },
  [`POST ${F}/projects/:id/rules/blocklys`]: { entity: 'blockly_program', action: 'create', id: answerField('id'), snapshot: program },
  [`PUT ${F}/projects/:id/rules/blocklys/:ruleId`]: { entity: 'blockly_program', action: 'update', id: param('ruleId'), snapshot: program },
  [`DELETE ${F}/projects/:id/rules/blocklys/:ruleId`]: {
    entity: 'blockly_program',
    action: 'delete',
    id: param('ruleId'),
    snapshot: program,
  },
  [`PUT ${F}/projects/:id/rules/blocklySetting`]: {
    entity: 'blockly_setting',
    action: 'update',
    id: param('id'),
    snapshot: rowBy(projectBlocklySettings, projectBlocklySettings.projectId),
  },

  // Notification settings and the custom page.
  [`PUT ${F}/projects/:id/notification/emails`]: {
    entity: 'notification_emails',
    action: 'update',
    id: param('id'),
    snapshot: notificationEmailsSnapshot,
  },
  [`PUT ${N}/project/:id`]: {
    entity: 'notification_subscription',
    action: 'update',
    id: param('id'),
    snapshot: subscriptionSnapshot('project'),
  },
  [`DELETE ${N}/project/:id`]: {
    entity: 'notification_subscription',
    action: 'delete',
    id: param('id'),
    snapshot: subscriptionSnapshot('project'),
  },
  [`PUT ${N}/device/:tangramId`]: {
    entity: 'notification_subscription',
    action: 'update',
    id: param('tangramId'),
    snapshot: subscriptionSnapshot('device'),
  },
  [`DELETE ${N}/device/:tangramId`]: {
    entity: 'notification_subscription',
    action: 'delete',
    id: param('tangramId'),
    snapshot: subscriptionSnapshot('device'),
  },
  [`PUT ${F}/projects/:id/custom-page`]: {
    entity: 'custom_page',
    action: 'update',
    id: param('id'),
    snapshot: rowBy(customPages, customPages.projectId),
  },
  [`DELETE ${F}/projects/:id/custom-page`]: {
    entity: 'custom_page',
    action: 'delete',
    id: param('id'),
    snapshot: rowBy(customPages, customPages.projectId),
  },
  [`PUT ${N}/line/official-account`]: {
    entity: 'line_official_account',
    action: 'update',
    id: callerTenant,
    snapshot: rowBy(lineOfficialAccounts, lineOfficialAccounts.tenantId),
  },
  [`DELETE ${N}/line/official-account`]: {
    entity: 'line_official_account',
    action: 'delete',
    id: callerTenant,
    snapshot: rowBy(lineOfficialAccounts, lineOfficialAccounts.tenantId),
  },
  ...crud('line_group', `${N}/message-flow`, rowBy(lineGroups, lineGroups.id)),

  // Roles and grants.
  ...crud('role', `${U}/project-role`, role),
  ...crud('role', `${U}/device-role`, role),
  ...crud('role', `${U}/machine-role`, role),
  [`POST ${'/client-authz/v1'}/client`]: {
    entity: 'authz_request',
    action: 'create',
    id: answerField('id'),
    snapshot: rowBy(authzRequests, authzRequests.id),
  },
  [`PUT ${'/client-authz/v1'}/:id`]: {
    entity: 'authz_request',
    action: 'decide',
    id: param('id'),
    snapshot: rowBy(authzRequests, authzRequests.id),
    withBody: true,
  },

  // Machines.
  ...crud('machine_configure', `${U}/machine-configure`, rowBy(machineConfigures, machineConfigures.id)),
  ...crud('machine', `${U}/machine-instance`, rowBy(machines, machines.id)),

  // Platform rules and platform telemetry.
  ...crud('platform_rule', `${R}/rules`, platformRule),
  [`POST ${R}/rules/:id/copy`]: { entity: 'platform_rule', action: 'copy', id: answerField('id'), snapshot: platformRule },
  [`POST ${R}/rules/:id/apply`]: { entity: 'platform_rule', action: 'apply', id: param('id'), snapshot: platformRule },
  [`POST ${R}/rules/:id/start`]: { entity: 'platform_rule', action: 'start', id: param('id'), snapshot: platformRule },
  [`POST ${R}/rules/:id/stop`]: { entity: 'platform_rule', action: 'stop', id: param('id'), snapshot: platformRule },
  [`POST ${R}/rules/:id/run`]: { entity: 'platform_rule', action: 'run', id: param('id'), withBody: true },
  [`POST ${R}/rules/:id/replay`]: { entity: 'platform_rule', action: 'run', id: param('id'), withBody: true },
  [`PUT ${R}/engineConfig`]: {
    entity: 'platform_engine_config',
    action: 'update',
    id: callerTenant,
    snapshot: rowBy(platformEngineConfigs, platformEngineConfigs.tenantId),
  },
  ...crud('platform_telemetry', '/frontstage-pt/v1/platform-telemetry', rowBy(platformTelemetries, platformTelemetries.id)),

  // Alerts, downloads, AI models.
  'POST /frontstage-alert/v1/alerts/:id/acknowledge': {
    entity: 'alert',
    action: 'acknowledge',
    id: param('id'),
    snapshot: rowBy(alerts, alerts.id),
  },
  'POST /frontstage-alert/v1/alerts/:id/resolve': {
    entity: 'alert',
    action: 'resolve',
    id: param('id'),
    snapshot: rowBy(alerts, alerts.id),
  },
  'POST /frontstage-dc/v1/timeseries-records': {
    entity: 'download',
    action: 'create',
    id: answerField('id'),
    snapshot: rowBy(downloadJobs, downloadJobs.id),
  },
  'POST /frontstage-dc/v1/timeseries-records/:id/cancel': {
    entity: 'download',
    action: 'update',
    id: param('id'),
    snapshot: rowBy(downloadJobs, downloadJobs.id),
  },
  'DELETE /frontstage-dc/v1/timeseries-records/:id': {
    entity: 'download',
    action: 'delete',
    id: param('id'),
    snapshot: rowBy(downloadJobs, downloadJobs.id),
  },
  ...crud('ai_model', `${AI}/ai-models`, rowBy(aiModels, aiModels.id)),
  [`POST ${AI}/ai-models/:id/revisions`]: { entity: 'ai_model', action: 'create_revision', id: param('id'), withBody: true },
  [`DELETE ${AI}/ai-models/:id/revisions/:rev`]: { entity: 'ai_model', action: 'delete_revision', id: param('id'), withBody: true },
  [`POST ${AI}/ai-models/:id/revisions/:rev/rollouts`]: {
    entity: 'model_rollout',
    action: 'create',
    id: answerField('id'),
    snapshot: rowBy(aiModelRollouts, aiModelRollouts.id),
    withBody: true,
  },
  [`POST ${AI}/model-rollouts/:id/retry`]: {
    entity: 'model_rollout',
    action: 'update',
    id: param('id'),
    snapshot: rowBy(aiModelRollouts, aiModelRollouts.id),
  },
  [`DELETE ${AI}/model-rollouts/:id`]: {
    entity: 'model_rollout',
    action: 'delete',
    id: param('id'),
    snapshot: rowBy(aiModelRollouts, aiModelRollouts.id),
  },
};

/**
 * Mutating routes that are not recorded, each for a reason: they change nothing (a compile, a preview, a test message,
 * a mailed code, a download link), they are a session's plumbing (refresh, logout: the login is recorded), devices or
 * another platform call them (LINE's webhook, a device's token, RabbitMQ's auth backend), or they are one account's own
 * view of the console (its dashboard, assistant conversations, browser push subscription, LINE account link).
 */
export const UNAUDITED_ROUTES: ReadonlySet<string> = new Set([
  `POST ${A}/verify-email`,
  `POST ${A}/forgot-pwd`,
  `POST ${A}/refresh-token`,
  `POST ${A}/logout`,
  `POST ${F}/projects/:id/rules/blocklys/compile`,
  `POST ${F}/notification/email/test`,
  `POST ${F}/image/upload`,
  `POST ${F}/devices/:tangramId/remoteControl/getDeviceInfo`,
  `POST /frontstage-pt/v1/platform-telemetry/preview`,
  `POST ${N}/message-flow/:id/test`,
  `POST ${N}/line/webhook/:webhookId`,
  `POST ${N}/account-link`,
  `DELETE ${N}/account-link`,
  `POST ${N}/web-push/subscriptions`,
  `DELETE ${N}/web-push/subscriptions`,
  `POST /frontstage-dc/v1/timeseries-records/:id/link`,
  `POST ${AI}/ai-models/:id/revisions/:rev/link`,
  `POST ${AI}/assistant/conversations`,
  `POST ${AI}/assistant/conversations/:id/messages`,
  `DELETE ${AI}/assistant/conversations/:id`,
  `POST /device/v1/token`,
]);

/**
 * Path prefixes whose mutating routes are never recorded: one account's dashboard, the broker's auth backend, and
 * the device APIs devices and network servers call (`/api/v1/{token}/…`: a device's data is not an account's change,
 * and the path holds the device's access token, which must not be written down; `/lorawan/v1/{id}/…`: a network
 * server's uplinks, whose bodies are device data and which the integration's last payloads list already).
 */
export const UNAUDITED_PREFIXES: readonly string[] = ['/dashboard/v1/', '/broker/', '/api/v1/', '/lorawan/v1/'];
