/**
 * Summaries of the health, auth (`/authorization/v1`) and frontstage (`/frontstage/v1`) operations (spec §7), with the
 * error statuses each answers beyond the derived ones (document.ts).
 */
import { CustomPageErrorCode, ErrorCode, ImageErrorCode, RuleErrorCode } from '@tessera/contracts';
import type { TOperationDoc } from './operation-doc.js';

/** Operation docs keyed `"METHOD /path"`. */
export const AUTH_AND_FRONTSTAGE_OPERATIONS: Record<string, TOperationDoc> = {
  'GET /healthz': { summary: 'Is the server ready: the database and the MQTT broker answer (503 while either does not)' },

  'POST /authorization/v1/verify-email': {
    summary: 'Send a verification code to an e-mail address (sign-up or password reset)',
    errors: { 409: [ErrorCode.EmailTaken], 429: [ErrorCode.RateLimited] },
  },
  'POST /authorization/v1/register/aiot': {
    summary: 'Create a vendor or user account with a verification code',
    errors: { 409: [ErrorCode.EmailTaken], 400: [ErrorCode.CodeInvalid] },
  },
  'POST /authorization/v1/login': {
    summary: 'Log in with e-mail and password; answers an access token, a refresh token and set_pwd_flag',
    errors: { 401: [ErrorCode.WrongCredentials], 423: [ErrorCode.AccountLocked], 429: [ErrorCode.LoginThrottled] },
  },
  'POST /authorization/v1/refresh-token': {
    summary: 'Exchange a refresh token for a new access token and a new refresh token (the old one is spent)',
    errors: { 401: [ErrorCode.RefreshInvalid] },
  },
  'POST /authorization/v1/logout': { summary: 'Log out: revoke the refresh token' },
  'POST /authorization/v1/forgot-pwd': {
    summary: 'Send a password-reset code to the account e-mail',
    errors: { 429: [ErrorCode.RateLimited] },
  },
  'POST /authorization/v1/reset-pwd': {
    summary: 'Set a new password with a reset code',
    errors: { 400: [ErrorCode.CodeInvalid, ErrorCode.PasswordReused] },
  },
  'GET /authorization/v1/profile': { summary: "The caller's profile: name, e-mail, role, language" },
  'PUT /authorization/v1/profile': { summary: "Change the caller's name and console language" },
  'PUT /authorization/v1/pwd': {
    summary: 'Change the password (a password session only); other sessions are logged out',
    errors: { 400: [ErrorCode.PasswordIncorrect, ErrorCode.PasswordReused] },
  },
  'GET /authorization/v1/security/api-key': { summary: "List the caller's API keys (names, prefixes and expiry; never the key)" },
  'POST /authorization/v1/security/api-key': { summary: 'Create an API key; the key is answered once, in full' },
  'POST /authorization/v1/security/api-key/revoke': {
    summary: 'Revoke one of the caller’s API keys',
    errors: { 404: [ErrorCode.NotFound] },
  },
  'GET /authorization/v1/admin/account': { summary: 'Platform admin: list the accounts that can be acted as' },
  'POST /authorization/v1/admin/account/switch': { summary: 'Platform admin: act as another account (answers its tokens)' },
  'GET /authorization/v1/login/session': {
    summary: 'QR login: an event stream that delivers the tokens once a logged-in phone confirms the code',
    errors: { 429: [ErrorCode.QrLoginTooManyStreams], 503: [ErrorCode.QrLoginBusy] },
  },
  'GET /authorization/v1/login/qrcode': {
    summary: 'QR login: a new session id and the QR code to show',
    errors: { 429: [ErrorCode.RateLimited] },
  },
  'POST /authorization/v1/login/qrcode': {
    summary: 'QR login: confirm a session id from a logged-in phone',
    errors: { 400: [ErrorCode.QrExpired] },
  },

  'GET /frontstage/v1/products': { summary: "List the vendor's products (paged, searchable)" },
  'POST /frontstage/v1/products': { summary: 'Create a product', errors: { 409: [ErrorCode.Conflict] } },
  'GET /frontstage/v1/products/sum': { summary: "Count the vendor's products" },
  'GET /frontstage/v1/products/catalog': { summary: 'Products with their classes, for pickers' },
  'PUT /frontstage/v1/products/{id}': { summary: 'Update a product', errors: { 409: [ErrorCode.Conflict] } },
  'DELETE /frontstage/v1/products/{id}': { summary: 'Delete a product no project uses', errors: { 409: [ErrorCode.InUse] } },
  'GET /frontstage/v1/products/classes': { summary: 'List product classes' },
  'POST /frontstage/v1/products/classes': { summary: 'Create a product class', errors: { 409: [ErrorCode.Conflict] } },
  'PUT /frontstage/v1/products/classes/{id}': { summary: 'Rename a product class', errors: { 409: [ErrorCode.Conflict] } },
  'DELETE /frontstage/v1/products/classes/{id}': { summary: 'Delete a product class no product uses', errors: { 409: [ErrorCode.InUse] } },
  'GET /frontstage/v1/projects/profile/product/{id}': { summary: "A project's product profile: the product and its hardware module" },
  'GET /frontstage/v1/projects/profile/product/functions/{id}': {
    summary: "A project product's functions (remote control, OTA, alerts, …)",
  },
  'PUT /frontstage/v1/projects/profile/product/functions/{id}': { summary: "Switch a project product's functions on or off" },
  'GET /frontstage/v1/template/tangramProducts': { summary: 'The hardware-module catalogue (Tangram products), 25 a page' },
  'GET /frontstage/v1/template/tangramProducts/{id}/sensors': { summary: "A hardware module's template sensors" },
  'POST /frontstage/v1/image/upload': {
    summary: 'Upload an image (PNG, JPEG, GIF or WebP, at most 2 MB); answers its URL',
    errors: { 400: [ErrorCode.Validation], 413: [ImageErrorCode.TooLarge], 415: [ImageErrorCode.Type] },
  },
  'GET /frontstage/v1/images/{id}': { summary: 'An uploaded image’s bytes' },

  'GET /frontstage/v1/projects': { summary: "List the caller's projects (paged, searchable)" },
  'POST /frontstage/v1/projects': { summary: 'Create a project for a product', errors: { 409: [ErrorCode.Conflict] } },
  'POST /frontstage/v1/projects/copy': {
    summary: 'Copy a project (sensors, rules and settings; no devices)',
    errors: { 409: [ErrorCode.Conflict] },
  },
  'GET /frontstage/v1/projects/sum': { summary: "Count the caller's projects" },
  'GET /frontstage/v1/projects/{id}': { summary: 'A project' },
  'PUT /frontstage/v1/projects/{id}': { summary: "Update a project's name, description, authorisation method and status groups" },
  'DELETE /frontstage/v1/projects/{id}': { summary: 'Delete a project and everything in it', errors: { 409: [ErrorCode.InUse] } },
  'PUT /frontstage/v1/projects/{id}/ruleType': { summary: "Set the project's rule type (simple or Blockly) and re-notify interval" },
  'GET /frontstage/v1/projects/{id}/devices': { summary: "List a project's devices (paged, searchable)" },
  'POST /frontstage/v1/projects/{id}/devices': {
    summary: 'Add a device to a project; answers its Tangram ID and secret once',
    errors: { 409: [ErrorCode.Conflict] },
  },
  'POST /frontstage/v1/projects/{id}/devices/bulk': {
    summary: 'Add many devices at once (serial numbers or rows); answers per-line results',
  },
  'GET /frontstage/v1/projects/{id}/notification/emails': { summary: "The project's alert e-mail recipients" },
  'PUT /frontstage/v1/projects/{id}/notification/emails': { summary: "Replace the project's alert e-mail recipients" },
  'POST /frontstage/v1/notification/email/test': {
    summary: "Send a test e-mail to the project's recipients",
    errors: { 429: [ErrorCode.RateLimited] },
  },
  'GET /frontstage/v1/projects/{id}/provisioning': {
    summary: 'How a device of the project connects: broker address, topics and an example',
  },
  'GET /frontstage/v1/projects/{id}/fee-estimate': { summary: "The project's monthly fee estimate from its devices, telemetry and pushes" },

  'GET /frontstage/v1/devices': { summary: 'List the devices the caller may see (paged, searchable)' },
  'GET /frontstage/v1/v2/devices': { summary: 'List the devices the caller may see, with their latest state (v2)' },
  'GET /frontstage/v1/devices/sum': { summary: 'Count the devices the caller may see, online and offline' },
  'GET /frontstage/v1/devices/{tangramId}': { summary: 'A device' },
  'PUT /frontstage/v1/devices/{tangramId}': { summary: "Rename a device or set the caller's nickname for it" },
  'GET /frontstage/v1/v2/devices/{tangramId}': { summary: 'A device with its latest telemetry and status (v2)' },
  'PUT /frontstage/v1/v2/devices/{tangramId}': { summary: "Rename a device or set the caller's nickname for it (v2)" },
  'POST /frontstage/v1/devices/{tangramId}/secret': { summary: "Rotate a device's MQTT secret; the new secret is answered once" },
  'GET /frontstage/v1/devices/getAccessAbleTenants': { summary: 'The vendors whose devices the caller may see' },
  'GET /frontstage/v1/devices/{tangramId}/profile/telemetries': { summary: "A device's telemetry keys with their sensors and units" },
  'GET /frontstage/v1/devices/{tangramId}/profile/status': { summary: "A device's status fields, decoded from its status word" },
  'POST /frontstage/v1/devices/{tangramId}/remoteControl/getDeviceInfo': {
    summary: 'Ask a connected device for its information (remote control)',
    errors: {
      409: [ErrorCode.DeviceOffline],
      502: [ErrorCode.DeviceError],
      503: [ErrorCode.BrokerUnavailable],
      504: [ErrorCode.DeviceTimeout],
    },
  },
  'POST /frontstage/v1/devices/{tangramId}/remoteControl/sensorCommand': {
    summary: "Send a command to one of a device's sensors and wait for its answer",
    errors: {
      409: [ErrorCode.DeviceOffline],
      502: [ErrorCode.DeviceError],
      503: [ErrorCode.BrokerUnavailable],
      504: [ErrorCode.DeviceTimeout],
    },
  },
  'GET /frontstage/v1/devices/{tangramId}/remoteControl/commands': { summary: 'The commands sent to a device and their answers' },
  'GET /frontstage/v1/devices/{tangramId}/userRules': { summary: "The caller's own alert rules on a device" },
  'POST /frontstage/v1/devices/{tangramId}/userRules': {
    summary: 'Add a personal alert rule on a device',
    errors: { 409: [RuleErrorCode.LimitReached] },
  },
  'PUT /frontstage/v1/devices/{tangramId}/userRules/{id}': { summary: 'Update a personal alert rule' },
  'DELETE /frontstage/v1/devices/{tangramId}/userRules/{id}': { summary: 'Delete a personal alert rule' },
  'GET /frontstage/v1/devices/configFCMStatus': { summary: "Which devices push alerts to the caller's phone" },
  'PUT /frontstage/v1/devices/configFCMStatus': { summary: 'Switch phone pushes for one device on or off' },
  'POST /frontstage/v1/devices/{tangramId}/clean-data': {
    summary: "Delete a device's stored telemetry (confirmed with the caller's password)",
    errors: { 400: [ErrorCode.PasswordIncorrect] },
  },
  'GET /frontstage/v1/devices/{tangramId}/motor-health': { summary: 'Motor health: ISO 10816-3 zone of the latest vibration velocity' },

  'GET /frontstage/v1/{id}/profile/sensors': { summary: "A project's sensors" },
  'POST /frontstage/v1/{id}/profile/sensors': { summary: 'Add a sensor to a project' },
  'POST /frontstage/v1/v2/{id}/profile/sensors': { summary: 'Add several sensors to a project at once (v2)' },
  'PUT /frontstage/v1/v2/{id}/profile/sensors': { summary: "Replace a project's sensors (v2)" },
  'GET /frontstage/v1/{id}/profile/telemetries': { summary: "A project's telemetry keys, with the enable limit" },
  'GET /frontstage/v1/projects/profile/sensors/{id}': { summary: 'A sensor' },
  'PUT /frontstage/v1/projects/profile/sensors/{id}': { summary: 'Update a sensor' },
  'DELETE /frontstage/v1/projects/profile/sensors/{id}': { summary: 'Delete a sensor' },
  'GET /frontstage/v1/{id}/profile/sensorBus': { summary: "A project's sensor bus (interface and port)" },
  'PUT /frontstage/v1/{id}/profile/sensorBus': { summary: "Set a project's sensor bus" },
  'POST /frontstage/v1/sensorDisplay': { summary: "Set how a sensor's value is shown (decimals, gauge range, colour)" },
  'GET /frontstage/v1/sensorDisplay/{id}': { summary: "A sensor's display settings" },
  'PUT /frontstage/v1/sensorDisplay/{id}': { summary: "Update a sensor's display settings" },
  'DELETE /frontstage/v1/sensorDisplay/{id}': { summary: "Reset a sensor's display settings" },
  'POST /frontstage/v1/sync': { summary: "Push a project's sensor configuration to its connected devices" },

  'GET /frontstage/v1/projects/{id}/rules/simples': { summary: "A project's simple (threshold) rules" },
  'POST /frontstage/v1/projects/{id}/rules/simples': {
    summary: 'Add a simple rule',
    errors: { 409: [RuleErrorCode.NameTaken, RuleErrorCode.LimitReached] },
  },
  'PUT /frontstage/v1/projects/{id}/rules/simples/{ruleId}': {
    summary: 'Update a simple rule',
    errors: { 409: [RuleErrorCode.NameTaken] },
  },
  'DELETE /frontstage/v1/projects/{id}/rules/simples/{ruleId}': { summary: 'Delete a simple rule' },
  'POST /frontstage/v1/projects/{id}/rules/blocklys/compile': {
    summary: 'Compile a Blockly workspace into a rule program, or say what is wrong',
  },
  'GET /frontstage/v1/projects/{id}/rules/blocklys': { summary: "A project's Blockly rules" },
  'POST /frontstage/v1/projects/{id}/rules/blocklys': {
    summary: 'Add a Blockly rule',
    errors: { 409: [RuleErrorCode.NameTaken, RuleErrorCode.LimitReached] },
  },
  'GET /frontstage/v1/projects/{id}/rules/blocklys/{ruleId}': { summary: 'A Blockly rule with its workspace and program' },
  'PUT /frontstage/v1/projects/{id}/rules/blocklys/{ruleId}': {
    summary: 'Update a Blockly rule',
    errors: { 409: [RuleErrorCode.NameTaken] },
  },
  'DELETE /frontstage/v1/projects/{id}/rules/blocklys/{ruleId}': { summary: 'Delete a Blockly rule' },
  'GET /frontstage/v1/projects/{id}/rules/blocklySetting': { summary: "The project's Blockly settings (custom properties)" },
  'PUT /frontstage/v1/projects/{id}/rules/blocklySetting': { summary: "Set the project's Blockly settings" },

  'GET /frontstage/v1/projects/{id}/custom-page': { summary: "The project's custom page: title and view link" },
  'PUT /frontstage/v1/projects/{id}/custom-page': {
    summary: 'Upload the project’s custom page (one HTML file)',
    errors: { 413: [CustomPageErrorCode.TooLarge], 415: [CustomPageErrorCode.Type] },
  },
  'DELETE /frontstage/v1/projects/{id}/custom-page': { summary: "Delete the project's custom page" },
  'GET /pages/custom-page/{id}': {
    summary: 'A custom page’s HTML, sandboxed on its own origin (opened with the signed view link)',
    errors: { 403: [CustomPageErrorCode.LinkInvalid, CustomPageErrorCode.LinkExpired] },
  },
};
