/**
 * Deploying AI model revisions to devices (beyond the spec, docs/decisions/ai.md "Deploying to devices",
 * docs/protocol.md "AI models"): a vendor picks a revision and devices (or a project); each device is told on its
 * retained `devices/{id}/model` topic what to fetch, downloads the file over HTTP with a short-lived token of its own,
 * checks the SHA-256 and reports on `devices/{id}/model/state`. A **rollout** is one such deployment of one revision
 * to a set of devices; each of its devices has a **deployment** row with its state.
 */
import { z } from 'zod';
import { API } from './api-paths.js';
import { NUL, ZId, ZIdText } from './input.js';
import { ZListQuery, zPage } from './pagination.js';

/** Paths of the console's rollout routes (vendors granted 13:1) and of the devices' HTTP side. */
export const modelDeploymentPaths = {
  /** POST: deploy revision `rev` of model `id`. */
  deploy: (id: number, rev: number) => `${API.ai}/ai-models/${id}/revisions/${rev}/rollouts`,
  /** GET: the rollouts, newest first (`?model_id=` narrows to one model). */
  rollouts: `${API.ai}/model-rollouts`,
  /** GET one rollout; DELETE removes its revision from the devices that still hold it. */
  rollout: (id: number) => `${API.ai}/model-rollouts/${id}`,
  /** GET: the rollout's devices and their states. */
  rolloutDevices: (id: number) => `${API.ai}/model-rollouts/${id}/devices`,
  /** POST: sends the failed devices of the rollout their model again. */
  retry: (id: number) => `${API.ai}/model-rollouts/${id}/retry`,
  /** POST, HTTP Basic (full Tangram ID : secret): a device's short-lived token. */
  deviceToken: '/device/v1/token',
  /** GET with the device's token (bearer): the file of deployment `id`, resumable with `Range`. */
  deviceModelFile: (id: number) => `/device/v1/model-deployments/${id}/file`,
} as const;

/** A device token (POST /device/v1/token) is valid this many seconds. */
export const DEVICE_TOKEN_TTL_S = 600;
/** At most this many devices in one rollout (a larger fleet is deployed project by project). */
export const MAX_ROLLOUT_DEVICES = 1_000;
/** A failure reason a device reports is kept to this many characters. */
export const MODEL_FAILURE_REASON_MAX = 200;

/**
 * A device's state in a rollout: `pending` (told, nothing heard yet), `downloading` (with progress), `installed`,
 * `failed` (with the device's reason), `superseded` (a later rollout gave the device another revision, or the rollout
 * was removed from it).
 */
export const MODEL_DEPLOYMENT_STATES = ['pending', 'downloading', 'installed', 'failed', 'superseded'] as const;
export type TModelDeploymentState = (typeof MODEL_DEPLOYMENT_STATES)[number];
/** The states a device reports (the others are the server's). */
export const MODEL_REPORTED_STATES = ['downloading', 'installed', 'failed'] as const;

/**
 * Error codes (422): a rollout that ends up with no device (an empty project), with more than
 * {@link MAX_ROLLOUT_DEVICES}, or with a device whose hardware module is not the one the model targets.
 */
export const ModelDeploymentErrorCode = {
  NoDevices: 'ROLLOUT_NO_DEVICES',
  TooManyDevices: 'ROLLOUT_TOO_MANY_DEVICES',
  WrongHardware: 'ROLLOUT_WRONG_HARDWARE',
} as const;

/**
 * POST …/revisions/{rev}/rollouts: the devices by id, or every device of a project, or both (the union). At least
 * one device in the end, at most {@link MAX_ROLLOUT_DEVICES}.
 */
export const ZRolloutInput = z
  .object({
    device_ids: z.array(ZId).max(MAX_ROLLOUT_DEVICES).default([]),
    project_id: ZId.optional(),
  })
  .refine((v) => v.device_ids.length > 0 || v.project_id !== undefined, { message: 'name devices or a project', path: ['device_ids'] });
export type TRolloutInput = z.input<typeof ZRolloutInput>;

/** How many devices of a rollout are in each state. */
export const ZRolloutCounts = z.object(
  Object.fromEntries(MODEL_DEPLOYMENT_STATES.map((s) => [s, z.number().int()])) as Record<TModelDeploymentState, z.ZodNumber>,
);
export type TRolloutCounts = z.infer<typeof ZRolloutCounts>;

/** A rollout as answered. `created_by` is null once that account is gone. */
export const ZRollout = z.object({
  id: z.number().int(),
  model_id: z.number().int(),
  model_name: z.string(),
  revision: z.number().int(),
  revision_id: z.number().int(),
  file_name: z.string(),
  size_bytes: z.number().int(),
  sha256: z.string(),
  created_by: z.object({ account_id: z.number().int(), email: z.string() }).nullable(),
  created_at: z.number().int(),
  device_count: z.number().int(),
  counts: ZRolloutCounts,
});
export type TRollout = z.infer<typeof ZRollout>;
export const ZRolloutPage = zPage(ZRollout);
export type TRolloutPage = z.infer<typeof ZRolloutPage>;

/** `?page=&limit=&model_id=` of GET model-rollouts. */
export const ZRolloutListQuery = ZListQuery.extend({ model_id: ZIdText.optional() });
export type TRolloutListQuery = z.infer<typeof ZRolloutListQuery>;

/** `?page=&limit=&q=&state=` of GET model-rollouts/{id}/devices; `q` matches the device's name or Tangram ID. */
export const ZRolloutDeviceQuery = ZListQuery.extend({ state: z.enum(MODEL_DEPLOYMENT_STATES).optional() });
export type TRolloutDeviceQuery = z.infer<typeof ZRolloutDeviceQuery>;

/** One device of a rollout. `progress` is 0…1 (downloading; 1 once installed); `attempt` counts from 1. */
export const ZRolloutDevice = z.object({
  deployment_id: z.number().int(),
  device_id: z.number().int(),
  device_name: z.string(),
  tangram_id: z.string(),
  state: z.enum(MODEL_DEPLOYMENT_STATES),
  progress: z.number(),
  reason: z.string().nullable(),
  attempt: z.number().int(),
  updated_at: z.number().int(),
});
export type TRolloutDevice = z.infer<typeof ZRolloutDevice>;
export const ZRolloutDevicePage = zPage(ZRolloutDevice);
export type TRolloutDevicePage = z.infer<typeof ZRolloutDevicePage>;

/** POST model-rollouts/{id}/retry answers how many devices were sent their model again. */
export const ZRolloutRetry = z.object({ retried: z.number().int() });
export type TRolloutRetry = z.infer<typeof ZRolloutRetry>;

/** POST /device/v1/token answers a bearer token for the device's HTTP requests. */
export const ZDeviceToken = z.object({ token: z.string(), expires_in_s: z.number().int() });
export type TDeviceToken = z.infer<typeof ZDeviceToken>;

/**
 * The retained `devices/{id}/model` message (server → device; an empty retained payload: no model). `url` is the
 * file's absolute URL, `tokenUrl` where the device gets the bearer token for it. A new (`deploymentId`, `attempt`)
 * is a new download; the same pair again (a reconnect) is answered with the state the device holds.
 */
export const ZDeviceModelMessage = z.object({
  deploymentId: z.number().int().positive(),
  attempt: z.number().int().positive(),
  modelId: z.number().int().positive(),
  modelName: z.string(),
  framework: z.string(),
  revision: z.number().int().positive(),
  fileName: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  url: z.string(),
  tokenUrl: z.string(),
});
export type TDeviceModelMessage = z.infer<typeof ZDeviceModelMessage>;

/**
 * What a device publishes on `devices/{id}/model/state` (QoS 1): the deployment and attempt it speaks of, its state,
 * the share downloaded (0…1, while downloading) and, when failed, why (e.g. `sha256 mismatch`).
 */
export const ZDeviceModelState = z.object({
  deploymentId: z.number().int().positive(),
  attempt: z.number().int().positive(),
  state: z.enum(MODEL_REPORTED_STATES),
  progress: z.number().min(0).max(1).optional(),
  reason: z
    .string()
    .max(MODEL_FAILURE_REASON_MAX)
    .refine((s) => !s.includes(NUL))
    .optional(),
});
export type TDeviceModelState = z.infer<typeof ZDeviceModelState>;
