/**
 * Project settings tabs (spec §2 project detail "system" and "notification"; §7 "notification emails: GET, PUT;
 * POST notification/email/test"; §9 "cloud fee estimates in TWD"). Decisions: docs/decisions/project-settings.md.
 */
import { z } from 'zod';
import { ZId } from './input.js';
import { API } from './api-paths.js';
import { ZEmail } from './auth.js';
import { ZRetention } from './telemetry-storage.js';

/** Paths of the project settings endpoints (server routes, console and tests). */
export const settingsPaths = {
  notificationEmails: (projectId: number) => `${API.frontstage}/projects/${projectId}/notification/emails`,
  notificationEmailTest: `${API.frontstage}/notification/email/test`,
  provisioning: (projectId: number) => `${API.frontstage}/projects/${projectId}/provisioning`,
  feeEstimate: (projectId: number) => `${API.frontstage}/projects/${projectId}/fee-estimate`,
  undeclaredKeySetting: (projectId: number) => `${API.frontstage}/projects/${projectId}/undeclared-keys/setting`,
} as const;

/**
 * GET/PUT `projects/{id}/undeclared-keys/setting`: whether ingest stores telemetry keys no sensor of the project
 * declares, typed by their first value, and offers them for declaration (undeclared-keys.ts; off by default).
 */
export const ZUndeclaredKeySetting = z.object({ accepts_undeclared_keys: z.boolean() });
export type TUndeclaredKeySetting = z.infer<typeof ZUndeclaredKeySetting>;

/** At most this many addresses on a project's notification list (a Tessera decision; spec: not shown). */
export const NOTIFICATION_EMAILS_MAX = 20;

/**
 * GET/PUT projects/{id}/notification/emails. Addresses are trimmed and lower-cased (§5 email valid, unique), so
 * two that differ only in case are duplicates and the list is refused.
 */
export const ZNotificationEmails = z.object({
  emails: z
    .array(ZEmail)
    .max(NOTIFICATION_EMAILS_MAX)
    .superRefine((emails, ctx) => {
      const seen = new Set<string>();
      emails.forEach((email, i) => {
        if (seen.has(email)) ctx.addIssue({ code: 'custom', path: [i], message: 'duplicate email' });
        seen.add(email);
      });
    }),
});
export type TNotificationEmails = z.infer<typeof ZNotificationEmails>;

/** POST notification/email/test: sends a test mail to every address of the project's list. */
export const ZNotificationEmailTest = z.object({ project_id: ZId });
export type TNotificationEmailTest = z.infer<typeof ZNotificationEmailTest>;

/** The answer of POST notification/email/test: how many mails went into the outbox. */
export const ZNotificationEmailTestResult = z.object({ queued: z.number().int().nonnegative() });
export type TNotificationEmailTestResult = z.infer<typeof ZNotificationEmailTestResult>;

/** GET projects/{id}/provisioning: what a device needs to connect (docs/protocol.md), read-only. */
export const ZProvisioning = z.object({
  /** Where the host came from: the PUBLIC_MQTT_URL setting, or the host of this request. */
  source: z.enum(['config', 'request']),
  host: z.string(),
  port: z.number().int(),
  /** True for `mqtts://` (TLS); the embedded broker speaks plain MQTT. */
  tls: z.boolean(),
  url: z.string(),
  /** Topic templates; `{id}` is the device's full Tangram ID. */
  topics: z.object({
    telemetry: z.string(),
    status: z.string(),
    commands: z.string(),
    command_reply: z.string(),
    config: z.string(),
  }),
});
export type TProvisioning = z.infer<typeof ZProvisioning>;

/** One sensor's share of the fee estimate (per device, per month). */
export const ZFeeSensor = z.object({
  key: z.string(),
  enabled: z.boolean(),
  upload_period_ms: z.number().int(),
  value_count: z.number().int(),
  messages_per_device: z.number(),
  points_per_device: z.number(),
});

/** GET projects/{id}/fee-estimate: the cloud fee in TWD for the project's configuration. */
export const ZFeeEstimate = z.object({
  currency: z.literal('TWD'),
  devices: z.number().int(),
  month_days: z.number().int(),
  sensors: z.array(ZFeeSensor),
  messages_per_month: z.number().int(),
  points_per_month: z.number().int(),
  /**
   * What the project keeps on disk under its retention once steady (docs/decisions/telemetry-storage.md "Fee"): raw
   * points and rollup rows kept, and their bytes; a retention "for ever" counts `horizon_days`.
   */
  storage: z.object({
    retention: ZRetention,
    horizon_days: z.number().int(),
    raw_points_kept: z.number().int(),
    rollup_rows_kept: z.number().int(),
    bytes_kept: z.number().int(),
  }),
  price: z.object({ messages_per_million: z.number(), points_per_million: z.number(), storage_per_gb_month: z.number() }),
  cost: z.object({ messages: z.number(), points: z.number(), storage: z.number(), total: z.number() }),
});
export type TFeeEstimate = z.infer<typeof ZFeeEstimate>;
