/** Auth request/response schemas (spec §7 `/authorization/v1`, §5 password and token rules, §3 token payload). */
import { z } from 'zod';
import { ZEpochMs, ZId } from './input.js';
import { ACCOUNT_LEVELS } from './features.js';
import { EMAIL_MAX, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, TOKEN_NAME_MAX } from './limits.js';
import { LANGUAGES } from './languages.js';
import { zPage } from './pagination.js';

export { LANGUAGES };
export const ZLanguage = z.enum(LANGUAGES);
export type TLanguage = z.infer<typeof ZLanguage>;

/** §5: "Email valid, required". Trimmed and lower-cased so uniqueness ignores case. */
export const ZEmail = z.string().trim().toLowerCase().max(EMAIL_MAX).pipe(z.email());

/** §5: password 8–16 characters with upper, lower, digit and special character. */
export const ZPassword = z
  .string()
  .min(PASSWORD_MIN)
  .max(PASSWORD_MAX)
  .regex(/[A-Z]/, 'needs an upper-case letter')
  .regex(/[a-z]/, 'needs a lower-case letter')
  .regex(/[0-9]/, 'needs a digit')
  .regex(/[^A-Za-z0-9]/, 'needs a special character')
  .meta({ examples: ['Demo#2026'] });

/** The two login roles of §6 (admins log in as vendors). */
export const ZLoginRole = z.enum(['vendor', 'user']);
export type TLoginRole = z.infer<typeof ZLoginRole>;

/** POST login. The password is not checked against the rule here: old accounts may predate it. */
export const ZLoginRequest = z.object({
  email: ZEmail,
  password: z.string().min(1).max(128),
  role: ZLoginRole,
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

/** Login/refresh response (§7): `set_pwd_flag` asks the console to go to /setpwd before anything else. */
export const ZTokenResponse = z.object({
  token: z.string(),
  refresh_token: z.string(),
  set_pwd_flag: z.boolean().optional(),
});
export type TTokenResponse = z.infer<typeof ZTokenResponse>;

/** POST refresh-token (§7 `{refresh_token, platform}`). */
export const ZRefreshRequest = z.object({ refresh_token: z.string().min(1).max(256), platform: z.string().max(32).optional() });
export type TRefreshRequest = z.infer<typeof ZRefreshRequest>;

/** POST logout: revokes the refresh token's family when given. */
export const ZLogoutRequest = z.object({ refresh_token: z.string().max(256).optional() });

/** Access-token payload (§3): tenant id, email, level, feature codes; plus standard `sub` (account id) and `exp`. */
export const ZTokenPayload = z.object({
  sub: z.string(),
  tid: z.number().int(),
  email: z.string(),
  level: z.enum(ACCOUNT_LEVELS),
  fea: z.array(z.string()),
  exp: z.number().optional(),
  /**
   * The actor behind an admin's act-as session (RFC 8693 §4.1 `act` claim): the platform admin's account id and
   * e-mail. Absent on the account's own sessions. The audit log records it beside the account acted as.
   */
  act: z.object({ sub: z.string(), email: z.string() }).optional(),
});
export type TTokenPayload = z.infer<typeof ZTokenPayload>;

/** POST verify-email: sends a 6-digit code for registration or password reset. */
export const ZVerifyEmailRequest = z.object({
  email: ZEmail,
  purpose: z.enum(['register', 'reset']).default('register'),
  language: ZLanguage.optional(),
});
export type TVerifyEmailRequest = z.infer<typeof ZVerifyEmailRequest>;

/** A 6-digit verification code. */
export const ZVerifyCode = z
  .string()
  .regex(/^\d{6}$/, '6 digits')
  .meta({ examples: ['042917'] });

/** POST register/aiot: a vendor opens a tenant; a user opens an account. */
export const ZRegisterRequest = z
  .object({
    email: ZEmail,
    code: ZVerifyCode,
    password: ZPassword,
    confirm_password: z.string(),
    name: z.string().trim().min(1).max(NAME_MAX),
    role: ZLoginRole.default('vendor'),
    language: ZLanguage.default('zh-TW'),
  })
  .refine((r) => r.password === r.confirm_password, { path: ['confirm_password'], message: 'does not match' });
export type TRegisterRequest = z.infer<typeof ZRegisterRequest>;

/** POST forgot-pwd: mails a reset code (the answer is the same whether or not the account exists). */
export const ZForgotPasswordRequest = z.object({ email: ZEmail, language: ZLanguage.optional() });

/** POST reset-pwd: code from forgot-pwd plus the new password. */
export const ZResetPasswordRequest = z
  .object({ email: ZEmail, code: ZVerifyCode, password: ZPassword, confirm_password: z.string() })
  .refine((r) => r.password === r.confirm_password, { path: ['confirm_password'], message: 'does not match' });
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>;

/** PUT pwd: change password; new differs from old (§5). Also used by /setpwd. */
export const ZChangePasswordRequest = z
  .object({
    old_password: z.string().min(1).max(128),
    password: ZPassword,
    confirm_password: z.string(),
    /** The caller's current refresh token: its session stays, every other session of the account ends. */
    refresh_token: z.string().min(1).max(256).optional(),
  })
  .refine((r) => r.password === r.confirm_password, { path: ['confirm_password'], message: 'does not match' })
  .refine((r) => r.password !== r.old_password, { path: ['password'], message: 'must differ from the old password' });
export type TChangePasswordRequest = z.infer<typeof ZChangePasswordRequest>;

/** GET profile. */
export const ZProfile = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  level: z.enum(ACCOUNT_LEVELS),
  tenant_id: z.number().int(),
  tenant_name: z.string(),
  language: ZLanguage,
  fea: z.array(z.string()),
  created_at: z.number(),
});
export type TProfile = z.infer<typeof ZProfile>;

/** PUT profile. */
export const ZProfileUpdate = z.object({
  name: z.string().trim().min(1).max(NAME_MAX).optional(),
  language: ZLanguage.optional(),
});
export type TProfileUpdate = z.infer<typeof ZProfileUpdate>;

/** POST security/api-key: name ≤ 32 (§5); `expires_at` epoch ms or null for permanent. */
export const ZApiKeyCreate = z.object({
  name: z.string().trim().min(1).max(TOKEN_NAME_MAX),
  expires_at: ZEpochMs.positive().nullable(),
});
export type TApiKeyCreate = z.infer<typeof ZApiKeyCreate>;

/** An API key as listed: never the secret, only its first characters. */
export const ZApiKey = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string(),
  expires_at: z.number().nullable(),
  created_at: z.number(),
  revoked: z.boolean(),
});
export type TApiKey = z.infer<typeof ZApiKey>;

/** The create answer: the full key, shown once. */
export const ZApiKeyCreated = ZApiKey.extend({ key: z.string() });
export type TApiKeyCreated = z.infer<typeof ZApiKeyCreated>;

/** POST security/api-key/revoke. */
export const ZApiKeyRevoke = z.object({ id: ZId });

/** GET security/api-key: the account's keys, newest first, as a page. */
export const ZApiKeyList = zPage(ZApiKey);

/** One account in the admin list (GET admin/account). */
export const ZAccountSummary = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  level: z.enum(ACCOUNT_LEVELS),
  tenant_id: z.number().int(),
  tenant_name: z.string(),
  /** True while the account is locked after repeated login failures. */
  locked: z.boolean(),
  created_at: z.number(),
});
export type TAccountSummary = z.infer<typeof ZAccountSummary>;

/** GET admin/account: a page of accounts (`q` searches email and name). */
export const ZAccountList = zPage(ZAccountSummary);
export type TAccountList = z.infer<typeof ZAccountList>;

/** POST admin/account/switch: the admin acts as `account_id` (answers that account's token pair). */
export const ZAccountSwitchRequest = z.object({ account_id: ZId });
export type TAccountSwitchRequest = z.infer<typeof ZAccountSwitchRequest>;
