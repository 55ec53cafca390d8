/**
 * LINE push (spec §2 `line-notify` → group, group/{id}; §3 "Line official account: channel ID, secret,
 * access token, bot basic ID" and "account link and message flow"; §7 `/notification/v1` "Line official account,
 * user, message-flow, account-link endpoints"; §8 "Line Notify connection limit reached", "monthly push limit
 * exceeded"). Delivery uses the LINE Messaging API (not the retired LINE Notify). Decisions: docs/decisions/line.md.
 */
import { z } from 'zod';
import { ZId } from './input.js';
import { ALERT_LEVELS } from './rules-program.js';

const prefix = '/notification/v1';

/** Paths of the LINE endpoints (server routes, console and tests). */
export const linePaths = {
  officialAccount: `${prefix}/line/official-account`,
  /** The webhook the vendor pastes into the LINE Developers console; `webhookId` is the tenant's opaque id. */
  webhook: (webhookId: string) => `${prefix}/line/webhook/${webhookId}`,
  chats: `${prefix}/line/chats`,
  accountLink: `${prefix}/account-link`,
  users: `${prefix}/user`,
  groups: `${prefix}/message-flow`,
  group: (id: number) => `${prefix}/message-flow/${id}`,
  groupTest: (id: number) => `${prefix}/message-flow/${id}/test`,
} as const;

/** The console page a LINE user is sent to (from the bot's reply) to confirm the link with a Tessera account. */
export const LINE_LINK_PAGE = '/line-notify/link';
/** LINE's account-link endpoint the console redirects to with `linkToken` and `nonce`. */
export const LINE_ACCOUNT_LINK_URL = 'https://access.line.me/dialog/bot/accountLink';
/** A link nonce (and LINE's link token) is valid this long, in milliseconds. */
export const LINE_LINK_NONCE_TTL_MS = 10 * 60_000;
/** Words that, typed to the bot in a 1:1 chat, answer with the account-link URL (compared trimmed, case-insensitive). */
export const LINE_LINK_KEYWORDS = ['link', '綁定', '連結', '绑定'] as const;
/** At most this many members (linked accounts and LINE group chats) in one message-flow group (§8 connection limit). */
export const LINE_GROUP_MEMBERS_MAX = 20;
/** At most this many message-flow groups per tenant. */
export const LINE_GROUPS_MAX = 50;
/** Length of a message-flow group's name. */
export const LINE_GROUP_NAME_MAX = 32;
/** LINE's limit on one text message, in characters. */
export const LINE_TEXT_MAX = 5000;

/** Error codes of the LINE routes (besides the common ones); messages are the spec's (§8) where it has one. */
export const LineErrorCode = {
  /** 401: the webhook call is unsigned or its X-Line-Signature does not match the body. */
  SignatureInvalid: 'LINE_SIGNATURE_INVALID',
  /** 409: the tenant has no Line official account yet. */
  NotConfigured: 'LINE_NOT_CONFIGURED',
  /** 409: a group would exceed LINE_GROUP_MEMBERS_MAX members, or the tenant LINE_GROUPS_MAX groups (§8). */
  ConnectionLimit: 'LINE_CONNECTION_LIMIT',
  /** 409: the monthly push quota of the channel is used up (§8). */
  QuotaExceeded: 'LINE_QUOTA_EXCEEDED',
  /** 400: the link token is unknown to LINE, or the group has nobody to push to. */
  LinkInvalid: 'LINE_LINK_INVALID',
  NoTargets: 'LINE_NO_TARGETS',
  /** 409: another group of the tenant has this name. */
  NameTaken: 'LINE_GROUP_NAME_TAKEN',
  /** 502: LINE answered the request with an error (message carries LINE's). */
  Upstream: 'LINE_UPSTREAM_ERROR',
} as const;

/** The spec's messages (§8), as the server writes them in error bodies and delivery rows. */
export const LINE_MESSAGES = {
  connectionLimit: 'Line Notify connection limit reached',
  quotaExceeded: 'monthly push limit exceeded',
} as const;

/** PUT official account. Secrets may be left out on a later PUT to keep the stored ones. */
export const ZLineOfficialAccountInput = z.object({
  channel_id: z
    .string()
    .trim()
    .regex(/^\d{1,20}$/, 'digits only')
    .meta({ examples: ['2000123456'] }),
  channel_secret: z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{32}$/, '32 hexadecimal characters')
    .meta({ examples: ['0123456789abcdef0123456789abcdef'] })
    .optional(),
  access_token: z.string().trim().min(8).max(1000).regex(/^\S+$/, 'no spaces').optional(),
  bot_basic_id: z
    .string()
    .trim()
    .regex(/^@[0-9A-Za-z._-]{1,32}$/, 'starts with @')
    .meta({ examples: ['@tessera'] }),
});
export type TLineOfficialAccountInput = z.infer<typeof ZLineOfficialAccountInput>;

/** The official account as GET answers it: secrets masked to their last 4 characters. */
export const ZLineOfficialAccount = z.object({
  channel_id: z.string(),
  bot_basic_id: z.string(),
  /** `••••` + the last 4 characters. */
  channel_secret: z.string(),
  access_token: z.string(),
  /** The URL to paste as the channel's webhook URL in the LINE Developers console. */
  webhook_url: z.string(),
  updated_at: z.number(),
});
export type TLineOfficialAccount = z.infer<typeof ZLineOfficialAccount>;

/** GET official account: null until the vendor saves one. */
export const ZLineOfficialAccountState = z.object({ account: ZLineOfficialAccount.nullable() });
export type TLineOfficialAccountState = z.infer<typeof ZLineOfficialAccountState>;

/** POST account-link: the link token from the bot's URL. */
export const ZAccountLinkStart = z.object({ linkToken: z.string().trim().min(1).max(256) });
export type TAccountLinkStart = z.infer<typeof ZAccountLinkStart>;

/** The answer of POST account-link: where the console sends the browser (LINE finishes the link). */
export const ZAccountLinkRedirect = z.object({ url: z.string(), expires_at: z.number() });
export type TAccountLinkRedirect = z.infer<typeof ZAccountLinkRedirect>;

/** GET account-link: the caller's link, and how to start one (the bot's basic ID; null without an official account). */
export const ZAccountLinkStatus = z.object({
  linked: z.boolean(),
  linked_at: z.number().nullable(),
  line_name: z.string().nullable(),
  bot_basic_id: z.string().nullable(),
});
export type TAccountLinkStatus = z.infer<typeof ZAccountLinkStatus>;

/** GET user: an account of the tenant with a LINE link. `following` false once the user blocked the bot. */
export const ZLineLinkedUser = z.object({
  account_id: z.number().int(),
  email: z.string(),
  name: z.string(),
  line_name: z.string().nullable(),
  following: z.boolean(),
  linked_at: z.number(),
});
export type TLineLinkedUser = z.infer<typeof ZLineLinkedUser>;
/** GET user: all the tenant's linked accounts, by email. */
export const ZLineLinkedUsers = z.object({ data: z.array(ZLineLinkedUser) });
export type TLineLinkedUsers = z.infer<typeof ZLineLinkedUsers>;

/** GET line/chats: a LINE group chat (or multi-person chat) the bot has joined. */
export const ZLineChat = z.object({
  id: z.number().int(),
  kind: z.enum(['group', 'room']),
  name: z.string().nullable(),
  joined: z.boolean(),
  updated_at: z.number(),
});
export type TLineChat = z.infer<typeof ZLineChat>;
/** GET line/chats: all the tenant's group chats, joined ones first. */
export const ZLineChats = z.object({ data: z.array(ZLineChat) });
export type TLineChats = z.infer<typeof ZLineChats>;

/** POST/PUT message-flow: a group — which projects' alerts of which levels go to which members. */
export const ZLineGroupInput = z.object({
  name: z.string().trim().min(1).max(LINE_GROUP_NAME_MAX),
  project_ids: z.array(ZId).max(200),
  levels: z.array(z.enum(ALERT_LEVELS)).min(1),
  /** Member limit (LINE_GROUP_MEMBERS_MAX) is checked by the server so that it answers the spec's message. */
  account_ids: z.array(ZId).max(1000),
  chat_ids: z.array(ZId).max(1000),
});
export type TLineGroupInput = z.infer<typeof ZLineGroupInput>;

/** A member of a group: a linked account or a LINE group chat; `deliverable` false when a push cannot reach it now. */
export const ZLineGroupMember = z.object({
  kind: z.enum(['account', 'chat']),
  id: z.number().int(),
  label: z.string(),
  deliverable: z.boolean(),
});
export type TLineGroupMember = z.infer<typeof ZLineGroupMember>;

/** A group as the API presents it. */
export const ZLineGroup = z.object({
  id: z.number().int(),
  name: z.string(),
  levels: z.array(z.enum(ALERT_LEVELS)),
  projects: z.array(z.object({ id: z.number().int(), name: z.string() })),
  members: z.array(ZLineGroupMember),
  created_at: z.number(),
  updated_at: z.number(),
});
export type TLineGroup = z.infer<typeof ZLineGroup>;
/** GET message-flow: all the tenant's groups, by name. */
export const ZLineGroups = z.object({ data: z.array(ZLineGroup) });
export type TLineGroups = z.infer<typeof ZLineGroups>;

/** States of a LINE push in the outbox. */
export const LINE_PUSH_STATES = ['pending', 'sent', 'failed', 'quota_exceeded'] as const;
export type TLinePushState = (typeof LINE_PUSH_STATES)[number];

/** POST message-flow/{id}/test: what happened to the test push of each member (pending = LINE down, retried). */
export const ZLineGroupTestResult = z.object({
  results: z.array(
    z.object({
      kind: z.enum(['account', 'chat']),
      id: z.number().int(),
      label: z.string(),
      status: z.enum(LINE_PUSH_STATES),
      error: z.string().nullable(),
    }),
  ),
});
export type TLineGroupTestResult = z.infer<typeof ZLineGroupTestResult>;
