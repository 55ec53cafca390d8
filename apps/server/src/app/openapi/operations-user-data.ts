/**
 * Summaries of the user (`/frontstage/user/v1`), timeseries (`/frontstage-ts/v1`), notification (`/notification/v1`),
 * alerts (`/frontstage-alert/v1`) and data-record (`/frontstage-dc/v1`) operations (spec §7), with the error statuses
 * each answers beyond the derived ones (document.ts).
 */
import { AlertErrorCode, ErrorCode, LineErrorCode } from '@tessera/contracts';
import type { TOperationDoc } from './operation-doc.js';

/** Operation docs keyed `"METHOD /path"`. */
export const USER_AND_DATA_OPERATIONS: Record<string, TOperationDoc> = {
  'GET /frontstage/user/v1/project-role/project/{id}': { summary: "A project's project roles, with their members and devices" },
  'POST /frontstage/user/v1/project-role': { summary: 'Create a project role', errors: { 409: [ErrorCode.Conflict] } },
  'PUT /frontstage/user/v1/project-role/{id}': {
    summary: 'Update a project role (permissions, devices, members)',
    errors: { 409: [ErrorCode.Conflict] },
  },
  'DELETE /frontstage/user/v1/project-role/{id}': { summary: 'Delete a project role' },
  'GET /frontstage/user/v1/device-role/project/{id}': { summary: "A project's device roles" },
  'POST /frontstage/user/v1/device-role': { summary: 'Create a device role', errors: { 409: [ErrorCode.Conflict] } },
  'PUT /frontstage/user/v1/device-role/{id}': { summary: 'Update a device role', errors: { 409: [ErrorCode.Conflict] } },
  'DELETE /frontstage/user/v1/device-role/{id}': { summary: 'Delete a device role' },
  'GET /frontstage/user/v1/machine-role': { summary: "The vendor's machine roles" },
  'POST /frontstage/user/v1/machine-role': { summary: 'Create a machine role', errors: { 409: [ErrorCode.Conflict] } },
  'PUT /frontstage/user/v1/machine-role/{id}': { summary: 'Update a machine role', errors: { 409: [ErrorCode.Conflict] } },
  'DELETE /frontstage/user/v1/machine-role/{id}': { summary: 'Delete a machine role' },
  'GET /frontstage/user/v1/machine-configure': { summary: 'List machine configurations (kinds of machine)' },
  'POST /frontstage/user/v1/machine-configure': { summary: 'Create a machine configuration', errors: { 409: [ErrorCode.Conflict] } },
  'GET /frontstage/user/v1/machine-configure/{id}': { summary: 'A machine configuration with its components' },
  'PUT /frontstage/user/v1/machine-configure/{id}': { summary: 'Update a machine configuration', errors: { 409: [ErrorCode.Conflict] } },
  'DELETE /frontstage/user/v1/machine-configure/{id}': {
    summary: 'Delete a machine configuration no machine uses',
    errors: { 409: [ErrorCode.InUse] },
  },
  'GET /frontstage/user/v1/machine-instance': { summary: 'List the machines the caller may see' },
  'POST /frontstage/user/v1/machine-instance': { summary: 'Create a machine from a configuration, binding devices to its components' },
  'GET /frontstage/user/v1/machine-instance/{id}': { summary: 'A machine with its bound devices' },
  'PUT /frontstage/user/v1/machine-instance/{id}': { summary: 'Update a machine and its device bindings' },
  'DELETE /frontstage/user/v1/machine-instance/{id}': { summary: 'Delete a machine' },
  'GET /frontstage/user/v1/authz/package-policy': { summary: "The tenant's plan: which kinds of role it may use and their limits" },

  'GET /frontstage-ts/v1/telemetries/metadata': { summary: "A device's telemetry keys with their first and last point times" },
  'GET /frontstage-ts/v1/latest': { summary: 'The latest value of each telemetry key of a device' },
  'GET /frontstage-ts/v1/latestN': { summary: 'The latest N points of a telemetry key' },
  'GET /frontstage-ts/v1/deviceTwins': { summary: 'Device twins: the reported state of several devices at once' },
  'GET /frontstage-ts/v1/types': { summary: 'The aggregation functions and value types the timeseries calls accept' },
  'GET /frontstage-ts/v1/v2/timeseries': {
    summary: 'A telemetry series over a range, raw or aggregated into buckets (fn, diff, type)',
    errors: { 400: [ErrorCode.RangeTooLong] },
  },
  'GET /frontstage-ts/v1/timeseries': { summary: 'A telemetry series over a range (v1)', errors: { 400: [ErrorCode.RangeTooLong] } },
  'GET /frontstage-ts/v1/telemetries/value/timeseries': {
    summary: 'Raw telemetry rows over a range, with device and server receive times',
    errors: { 400: [ErrorCode.RangeTooLong] },
  },
  'GET /frontstage-ts/v1/statistics/summary': { summary: 'Statistics of a key over a range: count, min, max, mean, sum' },
  'GET /frontstage-ts/v1/statistics/activation-rate': { summary: 'Activation rate: devices that sent data, per day' },
  'GET /frontstage-ts/v1/download': { summary: 'Raw telemetry rows over a range as CSV', errors: { 400: [ErrorCode.RangeTooLong] } },

  'GET /notification/v1/subscriptions': { summary: "The caller's alert subscriptions (devices and projects)" },
  'GET /notification/v1/device/{tangramId}': { summary: "The caller's alert subscription to a device" },
  'PUT /notification/v1/device/{tangramId}': { summary: 'Subscribe to a device’s alerts: levels and channels' },
  'DELETE /notification/v1/device/{tangramId}': { summary: 'Unsubscribe from a device’s alerts' },
  'GET /notification/v1/project/{id}': { summary: "The caller's alert subscription to a project" },
  'PUT /notification/v1/project/{id}': { summary: 'Subscribe to a project’s alerts: levels and channels' },
  'DELETE /notification/v1/project/{id}': { summary: 'Unsubscribe from a project’s alerts' },
  'POST /notification/v1/line/webhook/{webhookId}': {
    summary: 'LINE Messaging API webhook (signed by LINE with the channel secret)',
    errors: { 401: [LineErrorCode.SignatureInvalid] },
  },
  'GET /notification/v1/line/official-account': { summary: "The vendor's LINE official account (the secret and token masked)" },
  'PUT /notification/v1/line/official-account': {
    summary: "Connect the vendor's LINE official account",
    errors: { 502: [LineErrorCode.Upstream] },
  },
  'DELETE /notification/v1/line/official-account': {
    summary: "Disconnect the vendor's LINE official account",
    errors: { 404: [ErrorCode.NotFound] },
  },
  'GET /notification/v1/line/chats': { summary: 'The LINE groups and users that follow the official account' },
  'POST /notification/v1/account-link': {
    summary: "Link the caller's account to a LINE user (the link token from the bot)",
    errors: { 400: [LineErrorCode.LinkInvalid], 409: [LineErrorCode.ConnectionLimit] },
  },
  'GET /notification/v1/account-link': { summary: "Whether the caller's account is linked to LINE" },
  'DELETE /notification/v1/account-link': { summary: "Unlink the caller's account from LINE", errors: { 404: [ErrorCode.NotFound] } },
  'GET /notification/v1/user': { summary: 'The accounts a message flow may notify' },
  'GET /notification/v1/message-flow': { summary: 'List LINE message flows' },
  'POST /notification/v1/message-flow': { summary: 'Create a LINE message flow', errors: { 409: [LineErrorCode.NameTaken] } },
  'GET /notification/v1/message-flow/{id}': { summary: 'A LINE message flow' },
  'PUT /notification/v1/message-flow/{id}': { summary: 'Update a LINE message flow', errors: { 409: [LineErrorCode.NameTaken] } },
  'DELETE /notification/v1/message-flow/{id}': { summary: 'Delete a LINE message flow' },
  'POST /notification/v1/message-flow/{id}/test': {
    summary: 'Send a test message through a flow to its targets',
    errors: { 409: [LineErrorCode.NotConfigured, LineErrorCode.NoTargets], 502: [LineErrorCode.Upstream] },
  },
  'GET /notification/v1/web-push/key': { summary: "The server's VAPID public key for Web Push" },
  'POST /notification/v1/web-push/subscriptions': { summary: "Register this browser's Web Push subscription" },
  'DELETE /notification/v1/web-push/subscriptions': { summary: "Remove this browser's Web Push subscription" },

  'GET /frontstage-alert/v1/alerts/{id}/deliveries': { summary: 'How an alert was delivered: channels, recipients, results' },
  'GET /frontstage-alert/v1/alerts': {
    summary: 'Alert history, filtered and paged (newest first)',
    errors: { 400: [ErrorCode.RangeTooLong] },
  },
  'GET /frontstage-alert/v1/alerts/download': { summary: 'The filtered alert history as CSV', errors: { 400: [ErrorCode.RangeTooLong] } },
  'POST /frontstage-alert/v1/alerts/{id}/acknowledge': {
    summary: 'Acknowledge an open alert',
    errors: { 409: [AlertErrorCode.AlreadyAcknowledged, AlertErrorCode.AlreadyResolved] },
  },
  'POST /frontstage-alert/v1/alerts/{id}/resolve': {
    summary: 'Resolve an alert by hand',
    errors: { 409: [AlertErrorCode.AlreadyResolved] },
  },
  'GET /frontstage-alert/v1/vendors': { summary: 'Vendors with alerts the caller may see (filter values)' },
  'GET /frontstage-alert/v1/products': { summary: 'Products with alerts the caller may see (filter values)' },
  'GET /frontstage-alert/v1/projects': { summary: 'Projects with alerts the caller may see (filter values)' },
  'GET /frontstage-alert/v1/statistics': { summary: 'Alert counts by level and state over a range' },
  'GET /frontstage-alert/v1/statistics/detail': { summary: 'Alert counts per device or rule over a range' },
  'GET /frontstage-alert/v1/dashboard/alerts': { summary: 'The latest 100 alerts for the alerts dashboard' },

  'GET /frontstage-dc/v1/timeseries-records': { summary: "The caller's download-centre exports, paged" },
  'POST /frontstage-dc/v1/timeseries-records': {
    summary: 'Start an export of telemetry (devices, keys, range) in the background',
    errors: { 400: [ErrorCode.RangeTooLong] },
  },
  'GET /frontstage-dc/v1/timeseries-records/{id}': { summary: 'One export: its state and progress' },
  'DELETE /frontstage-dc/v1/timeseries-records/{id}': { summary: 'Delete an export and its file' },
  'POST /frontstage-dc/v1/timeseries-records/{id}/cancel': {
    summary: 'Cancel an export while it is packaging',
    errors: { 409: ['DOWNLOAD_NOT_PACKAGING'] },
  },
  'POST /frontstage-dc/v1/timeseries-records/{id}/link': {
    summary: 'A short-lived link to download a finished export',
    errors: { 409: ['DOWNLOAD_NOT_READY'] },
  },
  'GET /frontstage-dc/v1/timeseries-records/{id}/download': {
    summary: "A finished export's file (CSV or ZIP)",
    errors: { 409: ['DOWNLOAD_NOT_READY'], 410: ['DOWNLOAD_FILE_GONE'] },
  },
};
