/**
 * The OpenAPI document's groups, in the order of spec §7 "Calls": each route tag of the server maps to the spec
 * section (a §7 call group) it implements, and /docs shows operations grouped and ordered by these.
 */

/** One group of /docs: the route tags it gathers, its display name and what it covers. */
export interface TApiSection {
  /** Display name: the spec's call group, then what the tag covers. */
  name: string;
  /** The route tags (`schema.tags` of the routes) shown in this group. */
  routeTags: readonly string[];
  description: string;
}

/** Every group, in spec §7 order; operations-only groups (health) last. */
export const API_SECTIONS: readonly TApiSection[] = [
  {
    name: 'Auth',
    routeTags: ['auth'],
    description: 'Spec §7 Auth (/authorization/v1): sign-up, login, tokens, profile, API keys, admin act-as, QR login.',
  },
  {
    name: 'Frontstage: products',
    routeTags: ['products'],
    description: 'Spec §7 Frontstage products, classes, product profiles and the hardware-module template catalogue.',
  },
  {
    name: 'Frontstage: projects',
    routeTags: ['projects'],
    description: 'Spec §7 Frontstage projects: CRUD, copy, devices of a project, provisioning and fee estimate.',
  },
  {
    name: 'Frontstage: sensors',
    routeTags: ['sensors'],
    description: 'Spec §7 Frontstage sensors, telemetry profiles, sensor bus, sensor display and sync.',
  },
  {
    name: 'Frontstage: rules',
    routeTags: ['rules'],
    description: 'Spec §7 Frontstage rules: simple rules, Blockly rules and their compile step, Blockly setting.',
  },
  {
    name: 'Frontstage: custom page',
    routeTags: ['custom-page'],
    description: 'Spec §7 Frontstage custom page: the uploaded HTML, served sandboxed on its own origin.',
  },
  {
    name: 'Frontstage: devices',
    routeTags: ['devices'],
    description: 'Spec §7 Frontstage devices (v1 and v2): list, detail, profile, remote control, user rules, clean-data.',
  },
  { name: 'Frontstage: images', routeTags: ['images'], description: 'Spec §7 POST image/upload (2 MB) and the uploaded images.' },
  { name: 'User: roles', routeTags: ['roles'], description: 'Spec §7 User (/frontstage/user/v1): project, device and machine roles.' },
  { name: 'User: machines', routeTags: ['machines'], description: 'Spec §7 User: machine configurations and instances.' },
  { name: 'User: package policy', routeTags: ['package-policy'], description: 'Spec §7 User: GET authz/package-policy (the tenant plan).' },
  {
    name: 'Timeseries',
    routeTags: ['timeseries'],
    description: 'Spec §7 Timeseries (/frontstage-ts/v1): latest, series, statistics, CSV download.',
  },
  {
    name: 'Alerts',
    routeTags: ['alerts'],
    description: 'Spec §7 Alerts (/frontstage-alert/v1): history, statistics, dashboard, acknowledge and resolve.',
  },
  {
    name: 'Data records',
    routeTags: ['download-centre'],
    description: 'Spec §7 Data records (/frontstage-dc/v1): the download centre’s background exports.',
  },
  {
    name: 'AI: models',
    routeTags: ['ai-models'],
    description: 'Spec §7 AI (/frontstage-ai/v1): AI models with revisions, upload and download.',
  },
  {
    name: 'AI: rollouts',
    routeTags: ['model-deployments'],
    description: 'AI model rollouts to devices, and the device-side token and file download.',
  },
  { name: 'AI: assistant', routeTags: ['assistant'], description: 'The assistant: conversations answered from the caller’s own data.' },
  {
    name: 'Client authorisation',
    routeTags: ['authorisation'],
    description: 'Spec §7 Client authorisation (/client-authz/v1): access requests and their answers.',
  },
  {
    name: 'Notification',
    routeTags: ['notification', 'webhooks'],
    description: 'Spec §7 Notification (/notification/v1): subscriptions, e-mail, LINE, Web Push; a project’s outbound webhooks.',
  },
  {
    name: 'Rule engine',
    routeTags: ['rule-engine'],
    description: 'Spec §7 Rule engine (/rule-engine/v1): platform rules (flows), runs, engine config, alerts.',
  },
  {
    name: 'Platform telemetry',
    routeTags: ['platform-telemetry'],
    description: 'Spec §7 Platform telemetry (/frontstage-pt/v1): values computed from devices by a formula.',
  },
  { name: 'Dashboard', routeTags: ['dashboard'], description: 'Spec §7 Dashboard (/dashboard/v1): pages and widgets.' },
  { name: 'Admin', routeTags: ['admin'], description: 'Platform admin: views across every tenant (telemetry storage).' },
  {
    name: 'Audit log',
    routeTags: ['audit-log'],
    description: 'Who changed what, when and from where: the audit log of a tenant, and its CSV.',
  },
  {
    name: 'Device APIs',
    routeTags: ['device-api', 'lorawan'],
    description:
      "ThingsBoard's device API over HTTP, for firmware that names itself by its access token, and LoRaWAN network servers' uplink webhooks with their integrations and devices' DevEUIs (docs/protocol.md).",
  },
  { name: 'Operations', routeTags: ['health'], description: 'For operators: readiness of the server and its dependencies.' },
];

/** The group a route tag belongs to, or undefined for a tag no group gathers (a test keeps that from happening). */
export function sectionOfTag(tag: string): TApiSection | undefined {
  return API_SECTIONS.find((s) => s.routeTags.includes(tag));
}
