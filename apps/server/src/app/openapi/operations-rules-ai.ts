/**
 * Summaries of the rule-engine (`/rule-engine/v1`), dashboard, platform-telemetry, client-authorisation, AI and device
 * (`/device/v1`, and ThingsBoard's `/api/v1` claim) operations (spec §7), with the error statuses each answers beyond
 * the derived ones (document.ts).
 */
import { AiModelErrorCode, AssistantErrorCode, ErrorCode, ModelDeploymentErrorCode, PlatformRuleErrorCode } from '@tessera/contracts';
import type { TOperationDoc } from './operation-doc.js';

const notStopped = { 409: [PlatformRuleErrorCode.NotStopped] };

/** Operation docs keyed `"METHOD /path"`. */
export const RULES_AND_AI_OPERATIONS: Record<string, TOperationDoc> = {
  'GET /rule-engine/v1/rules': { summary: 'List platform rules (flows) with their state' },
  'POST /rule-engine/v1/rules': {
    summary: 'Create a platform rule from a draft flow',
    errors: { 409: [PlatformRuleErrorCode.LimitRules] },
  },
  'GET /rule-engine/v1/rules/{id}': { summary: 'A platform rule: its draft and applied flows' },
  'PUT /rule-engine/v1/rules/{id}': { summary: "Save a platform rule's draft flow (the running flow is unchanged until apply)" },
  'DELETE /rule-engine/v1/rules/{id}': { summary: 'Delete a stopped platform rule', errors: notStopped },
  'POST /rule-engine/v1/rules/{id}/copy': {
    summary: 'Copy a platform rule (stopped, as a draft)',
    errors: { 409: [PlatformRuleErrorCode.LimitRules] },
  },
  'POST /rule-engine/v1/rules/{id}/apply': {
    summary: 'Apply the draft: validate the flow and make it the one that runs',
    errors: { 422: [PlatformRuleErrorCode.ApplyFailed], 409: [PlatformRuleErrorCode.LimitNodes] },
  },
  'POST /rule-engine/v1/rules/{id}/start': {
    summary: 'Start an applied platform rule',
    errors: { 409: [PlatformRuleErrorCode.NotApplied] },
  },
  'POST /rule-engine/v1/rules/{id}/stop': { summary: 'Stop a platform rule' },
  'POST /rule-engine/v1/rules/{id}/run': {
    summary: 'Run a manually triggered platform rule once now',
    errors: { 409: [PlatformRuleErrorCode.NotApplied, PlatformRuleErrorCode.NotManual] },
  },
  'POST /rule-engine/v1/rules/{id}/replay': { summary: "Run the rule again on a past run's input (debug)" },
  'GET /rule-engine/v1/rules/{id}/logs': { summary: "A platform rule's runs, newest first" },
  'GET /rule-engine/v1/rules/{id}/logs/{runId}': { summary: 'One run: the path it took through the flow, node by node' },
  'GET /rule-engine/v1/rules/{id}/fires': { summary: 'When a platform rule fired, per trigger' },
  'GET /rule-engine/v1/devices': { summary: 'Devices a platform rule can trigger on or act on' },
  'GET /rule-engine/v1/engineConfig': { summary: "The tenant's rule-engine limits (rules, nodes, runs per second, tracing)" },
  'PUT /rule-engine/v1/engineConfig': { summary: "Set the tenant's rule-engine limits" },
  'GET /rule-engine/v1/rule-metrics': { summary: 'Platform-rule runs, failures and latency over the last hour' },
  'GET /rule-engine/v1/alerts/dashboard': { summary: 'Platform-rule alerts for the alerts dashboard' },
  'GET /rule-engine/v1/alerts/summary': { summary: 'Platform-rule alert counts by level and state' },
  'GET /rule-engine/v1/alerts/history': { summary: 'Platform-rule alert history, filtered and paged' },

  'GET /dashboard/v1/pages': { summary: "The caller's dashboard pages" },
  'POST /dashboard/v1/pages': { summary: 'Add a dashboard page', errors: { 409: ['DASHBOARD_PAGE_LIMIT'] } },
  'PUT /dashboard/v1/pages/order': { summary: 'Reorder the dashboard pages' },
  'PUT /dashboard/v1/pages/{id}': { summary: 'Rename a dashboard page' },
  'DELETE /dashboard/v1/pages/{id}': { summary: 'Delete a dashboard page and its widgets' },
  'GET /dashboard/v1/pages/{id}/widgets': { summary: "A dashboard page's widgets with their layout" },
  'PUT /dashboard/v1/pages/{id}/widgets': { summary: "Save a page's widgets: new ones are added, existing ones updated" },
  'DELETE /dashboard/v1/widgets/{id}': { summary: 'Delete a widget' },

  'GET /frontstage-pt/v1/platform-telemetry': { summary: 'List platform telemetry (values computed from devices by a formula)' },
  'POST /frontstage-pt/v1/platform-telemetry': {
    summary: 'Create a platform telemetry',
    errors: { 400: ['FORMULA_INVALID'], 409: ['PLATFORM_TELEMETRY_NAME_TAKEN', 'PLATFORM_TELEMETRY_LIMIT'] },
  },
  'POST /frontstage-pt/v1/platform-telemetry/preview': {
    summary: "Preview a formula's value from the devices' latest points",
    errors: { 400: ['FORMULA_INVALID'] },
  },
  'GET /frontstage-pt/v1/platform-telemetry/{id}': { summary: 'A platform telemetry with its current value' },
  'PUT /frontstage-pt/v1/platform-telemetry/{id}': {
    summary: 'Update a platform telemetry',
    errors: { 400: ['FORMULA_INVALID'], 409: ['PLATFORM_TELEMETRY_NAME_TAKEN'] },
  },
  'DELETE /frontstage-pt/v1/platform-telemetry/{id}': { summary: 'Delete a platform telemetry' },
  'GET /frontstage-pt/v1/platform-telemetry/{id}/timeseries': {
    summary: "A platform telemetry's series over a range",
    errors: { 400: [ErrorCode.RangeTooLong] },
  },
  'GET /frontstage-pt/v1/platform-telemetry/{id}/statistics': { summary: "Statistics of a platform telemetry's series over a range" },

  'GET /client-authz/v1/device-authz': { summary: 'Access requests to answer (vendor) or made (user), paged' },
  'POST /client-authz/v1/client': {
    summary: 'Ask for access to a device or project, with the proof its authorisation method needs',
    errors: {
      400: [ErrorCode.AuthzProofRequired, ErrorCode.AuthzProofInvalid],
      409: [ErrorCode.AuthzAlreadyGranted, ErrorCode.AuthzState],
      403: [ErrorCode.PlanLimit],
    },
  },
  'PUT /client-authz/v1/{id}': { summary: 'Approve or reject an access request', errors: { 409: [ErrorCode.AuthzState] } },
  'GET /client-authz/v1/users': { summary: 'The users who asked for access, for the filter' },
  'GET /client-authz/v1/device-ids': { summary: 'The devices access was asked for, for the filter' },
  'GET /client-authz/v1/qrcode/{tangramId}': { summary: "A device's claim QR code (printed on the device)" },

  'GET /frontstage-ai/v1/assistant/status': { summary: 'Whether the assistant is configured, and the caller’s remaining quota' },
  'GET /frontstage-ai/v1/assistant/conversations': { summary: "The caller's assistant conversations" },
  'POST /frontstage-ai/v1/assistant/conversations': { summary: 'Start an assistant conversation' },
  'GET /frontstage-ai/v1/assistant/conversations/{id}': { summary: 'An assistant conversation with its messages' },
  'DELETE /frontstage-ai/v1/assistant/conversations/{id}': { summary: 'Delete an assistant conversation' },
  'POST /frontstage-ai/v1/assistant/conversations/{id}/messages': {
    summary: 'Ask the assistant; it answers from the caller’s own data through read-only tools',
    errors: {
      409: [AssistantErrorCode.NotConfigured],
      429: [AssistantErrorCode.RequestLimit, AssistantErrorCode.TokenLimit],
      502: [AssistantErrorCode.Upstream, AssistantErrorCode.ToolRounds],
    },
  },
  'GET /frontstage-ai/v1/ai-models': { summary: 'List AI models (paged, searchable)' },
  'POST /frontstage-ai/v1/ai-models': { summary: 'Create an AI model for a hardware module', errors: { 409: [ErrorCode.Conflict] } },
  'GET /frontstage-ai/v1/ai-models/{id}': { summary: 'An AI model' },
  'PUT /frontstage-ai/v1/ai-models/{id}': { summary: 'Update an AI model', errors: { 409: [ErrorCode.Conflict] } },
  'DELETE /frontstage-ai/v1/ai-models/{id}': {
    summary: 'Delete an AI model no rollout uses',
    errors: { 409: [AiModelErrorCode.Deployed] },
  },
  'GET /frontstage-ai/v1/ai-models/{id}/revisions': { summary: "An AI model's revisions" },
  'POST /frontstage-ai/v1/ai-models/{id}/revisions': {
    summary: 'Upload a new revision file',
    errors: { 413: [AiModelErrorCode.TooLarge] },
  },
  'DELETE /frontstage-ai/v1/ai-models/{id}/revisions/{rev}': {
    summary: 'Delete a revision no rollout uses',
    errors: { 409: [AiModelErrorCode.Deployed] },
  },
  'POST /frontstage-ai/v1/ai-models/{id}/revisions/{rev}/link': { summary: "A short-lived link to a revision's file" },
  'GET /frontstage-ai/v1/ai-models/{id}/revisions/{rev}/download': {
    summary: "A revision's file (byte ranges supported)",
    errors: { 410: [AiModelErrorCode.FileGone], 416: [AiModelErrorCode.RangeNotSatisfiable] },
  },
  'POST /frontstage-ai/v1/ai-models/{id}/revisions/{rev}/rollouts': {
    summary: 'Roll a revision out to devices',
    errors: { 400: [ModelDeploymentErrorCode.NoDevices, ModelDeploymentErrorCode.TooManyDevices, ModelDeploymentErrorCode.WrongHardware] },
  },
  'GET /frontstage-ai/v1/model-rollouts': { summary: 'List model rollouts with their progress' },
  'GET /frontstage-ai/v1/model-rollouts/{id}': { summary: 'A model rollout' },
  'DELETE /frontstage-ai/v1/model-rollouts/{id}': { summary: 'Cancel a model rollout' },
  'GET /frontstage-ai/v1/model-rollouts/{id}/devices': { summary: "A rollout's devices and where each is" },
  'POST /frontstage-ai/v1/model-rollouts/{id}/retry': { summary: "Retry a rollout's failed devices" },
  'POST /api/v1/{token}/claim': {
    summary: 'A device claim (ThingsBoard): refused, Tessera has no claiming',
    description:
      'Answered 403 DEVICE_CLAIM_REFUSED and counted on the device as claim_refused: a user gets a device through an ' +
      'authorisation request its owner allows (docs/decisions/device-apis.md "Claiming").',
    errors: { 401: [ErrorCode.WrongCredentials], 403: [ErrorCode.DeviceClaimRefused] },
  },
  'POST /device/v1/token': {
    summary: 'Device: a bearer token from its Tangram ID and secret (HTTP Basic)',
    errors: { 401: ['DEVICE_CREDENTIALS_INVALID'] },
  },
  'GET /device/v1/model-deployments/{id}/file': {
    summary: 'Device: the file of a model deployed to it',
    errors: { 401: ['DEVICE_TOKEN_INVALID'] },
  },
};
