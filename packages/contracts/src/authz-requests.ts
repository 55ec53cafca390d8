/**
 * Authorisation requests (spec §2 `/self-auth/history`, `/self-auth/devce-auth`; §4 "Authorisation requests for
 * devices, projects and machines can be allowed or denied by the owner"; §7 Client authorisation `/client-authz/v1`
 * "device-authz list, client, PUT {id}, users, device-ids"). A user asks for one device, or for the whole project of
 * a device, naming the device by Tangram ID or serial number, with the proof its project's `device_authz_method`
 * asks for; the tenant's vendor allows or denies with a note, and may later revoke what was allowed. Every request
 * and answer is kept. Bodies, states and proofs: docs/decisions/authorisation.md.
 */
import { z } from 'zod';
import { ZEpochMsText } from './input.js';
import { ZListQuery, zPage } from './pagination.js';
import { DEVICE_AUTHZ_METHODS } from './projects.js';

/** Prefix of the client-authorisation calls (spec §7). */
export const AUTHZ_API = '/client-authz/v1';

/** Paths of the authorisation-request endpoints, relative to the host. */
export const authzPaths = {
  /** GET: requests (a vendor: its tenant's; a user: its own), filtered and paged. */
  requests: `${AUTHZ_API}/device-authz`,
  /** POST: a user asks for access. */
  client: `${AUTHZ_API}/client`,
  /** PUT: allow, deny or revoke (the owner), cancel (the requester). */
  request: (id: number) => `${AUTHZ_API}/${id}`,
  /** GET: who holds access now through an allowed request (vendors: the tenant's; managers: what they manage). */
  users: `${AUTHZ_API}/users`,
  /** GET: the Tangram IDs granted to the caller by allowed requests (user). */
  deviceIds: `${AUTHZ_API}/device-ids`,
  /** GET: the claim code a vendor prints on device `tangramId` for projects authorised by QR code. */
  qrCode: (tangramId: string) => `${AUTHZ_API}/qrcode/${tangramId}`,
} as const;

/**
 * What a request asks for: one device, every device of its project (now and later), or a machine (every device bound
 * to it, now and later).
 */
export const AUTHZ_TARGETS = ['device', 'project', 'machine'] as const;
/** One of {@link AUTHZ_TARGETS}. */
export type TAuthzTarget = (typeof AUTHZ_TARGETS)[number];

/**
 * A request's state: `pending` until the owner answers `allowed` or `denied`; an allowed request becomes `revoked`
 * when the owner takes access back; the requester may withdraw a pending one (`cancelled`).
 */
export const AUTHZ_STATES = ['pending', 'allowed', 'denied', 'revoked', 'cancelled'] as const;
/** One of {@link AUTHZ_STATES}. */
export type TAuthzState = (typeof AUTHZ_STATES)[number];

/** What PUT {id} does: `allow`/`deny` a pending request, `revoke` an allowed one (owner); `cancel` one's own pending. */
export const AUTHZ_DECISIONS = ['allow', 'deny', 'revoke', 'cancel'] as const;
/** One of {@link AUTHZ_DECISIONS}. */
export type TAuthzDecision = (typeof AUTHZ_DECISIONS)[number];

/** A request's message and an answer's note: at most this many characters. */
export const AUTHZ_TEXT_MAX = 200;
/** A device named in a request (Tangram ID or serial number): at most this many characters. */
export const AUTHZ_DEVICE_TEXT_MAX = 64;
/** A proof (QR claim code, BLE code): at most this many characters. */
export const AUTHZ_PROOF_MAX = 128;
/** At most this many pending requests per user account (asking again for the same target answers 409). */
export const AUTHZ_PENDING_MAX = 20;
/** A BLE proof code is valid for this many seconds (one step either side is accepted for clock drift). */
export const BLE_PROOF_STEP_S = 60;
/** Digits of a BLE proof code. */
export const BLE_PROOF_DIGITS = 6;

/**
 * POST client: the device by Tangram ID or serial number (`device`), `target` device or its whole project, the proof
 * its project's method asks for (`qrcode`: the printed claim code; `ble`: the code the device gives over BLE; `all`:
 * none), and an optional message to the owner. With `target: machine`, `device` names the machine by its serial number
 * or its name, and no proof is asked (the owner decides).
 */
export const ZAuthzRequestInput = z.object({
  target: z.enum(AUTHZ_TARGETS).default('device'),
  device: z.string().trim().min(1).max(AUTHZ_DEVICE_TEXT_MAX),
  proof: z.string().trim().max(AUTHZ_PROOF_MAX).optional(),
  message: z.string().trim().max(AUTHZ_TEXT_MAX).default(''),
});
export type TAuthzRequestInput = z.input<typeof ZAuthzRequestInput>;

/** PUT {id}: the decision and an optional note (kept with the request, shown to the requester). */
export const ZAuthzDecisionInput = z.object({
  decision: z.enum(AUTHZ_DECISIONS),
  note: z.string().trim().max(AUTHZ_TEXT_MAX).default(''),
});
export type TAuthzDecisionInput = z.input<typeof ZAuthzDecisionInput>;

/**
 * Which of its readable requests a user lists: `mine` (its own) or `managed` (those it may answer as a manager);
 * both without it. Vendors and admins read the tenant's either way.
 */
export const AUTHZ_SCOPES = ['mine', 'managed'] as const;

/**
 * GET device-authz: paging and `q` (requester email, device name or Tangram ID, project or machine name), state,
 * target, period and, for users, scope.
 */
export const ZAuthzRequestQuery = ZListQuery.extend({
  scope: z.enum(AUTHZ_SCOPES).optional(),
  status: z.enum(AUTHZ_STATES).optional(),
  target: z.enum(AUTHZ_TARGETS).optional(),
  from: ZEpochMsText.optional(),
  to: ZEpochMsText.optional(),
});
export type TAuthzRequestQuery = z.infer<typeof ZAuthzRequestQuery>;

/**
 * A request as presented. `device` is null for a machine request and for a project request whose device was since
 * deleted; `project` is null and `machine` set for a machine request.
 */
export const ZAuthzRequest = z.object({
  id: z.number().int(),
  target: z.enum(AUTHZ_TARGETS),
  status: z.enum(AUTHZ_STATES),
  method: z.enum(DEVICE_AUTHZ_METHODS),
  device: z.object({ tangram_id: z.string(), name: z.string() }).nullable(),
  project: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  machine: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  requester: z.object({ account_id: z.number().int(), email: z.string() }),
  message: z.string(),
  note: z.string(),
  decided_by: z.string().nullable(),
  created_at: z.number().int(),
  decided_at: z.number().int().nullable(),
  revoked_at: z.number().int().nullable(),
});
export type TAuthzRequest = z.infer<typeof ZAuthzRequest>;
export const ZAuthzRequestList = zPage(ZAuthzRequest);
export type TAuthzRequestList = z.infer<typeof ZAuthzRequestList>;

/** GET users: one holder of access granted by an allowed request (revoked through that request's id). */
export const ZAuthzHolder = z.object({
  request_id: z.number().int(),
  account_id: z.number().int(),
  email: z.string(),
  target: z.enum(AUTHZ_TARGETS),
  device: z.object({ tangram_id: z.string(), name: z.string() }).nullable(),
  project: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  machine: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  since: z.number().int(),
});
export type TAuthzHolder = z.infer<typeof ZAuthzHolder>;
export const ZAuthzHolderList = zPage(ZAuthzHolder);
export type TAuthzHolderList = z.infer<typeof ZAuthzHolderList>;

/** GET device-ids: the Tangram IDs granted to the caller by its allowed requests (devices and projects' devices). */
export const ZAuthzDeviceIds = z.object({ tangram_ids: z.array(z.string()) });
export type TAuthzDeviceIds = z.infer<typeof ZAuthzDeviceIds>;

/** GET qrcode/{tangramId}: the claim code and the console link a QR code carries (scan → request form, filled). */
export const ZAuthzQrCode = z.object({ tangram_id: z.string(), proof: z.string(), path: z.string() });
export type TAuthzQrCode = z.infer<typeof ZAuthzQrCode>;

/** The console path a printed QR code opens: the request form with the device and its claim code filled in. */
export function claimPath(tangramId: string, proof: string): string {
  return `/self-auth/devce-auth?device=${encodeURIComponent(tangramId)}&proof=${encodeURIComponent(proof)}`;
}

/** The message on `live/accounts/{accountId}/access` (topics.liveAccess): a request of the account was answered or revoked at `changed_at`. */
export const ZLiveAccessMessage = z.object({ account_id: z.number().int(), changed_at: z.number().int() });
export type TLiveAccessMessage = z.infer<typeof ZLiveAccessMessage>;
/** The filter the server follows every account's access changes with (one subscription per replica). */
export const LIVE_ACCESS_FILTER = 'live/accounts/+/access';
