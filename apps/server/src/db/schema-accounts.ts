/**
 * Accounts and their mail: platform settings, tenants, logins, verification codes, refresh
 * tokens, API keys, the mail outbox.
 * Part of the one Drizzle schema (schema.ts re-exports every schema file); times are epoch ms in `bigint` columns.
 */
import type { TTenantPlan } from '@tessera/contracts';
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, epochMs } from './columns.js';

/** Platform-wide key/value settings (e.g. the generated JWT signing secret). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** A tenant: one vendor company and everything it owns. `vendor_class` is its Tangram ID part. */
export const tenants = pgTable('tenants', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  vendorClass: text('vendor_class').notNull().default('01'),
  /** The tenant's plan: what `GET authz/package-policy` reports and the limits it sets (contracts package-policy.ts). */
  plan: text('plan').$type<TTenantPlan>().notNull().default('standard'),
  createdAt: createdAt(),
});

/** A login: admin, vendor or user (§6). Users belong to the tenant of the vendor that invited them. */
export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    level: text('level', { enum: ['admin', 'vendor', 'user'] }).notNull(),
    features: jsonb('features').$type<string[]>().notNull(),
    language: text('language', { enum: ['zh-TW', 'en'] })
      .notNull()
      .default('zh-TW'),
    mustSetPassword: boolean('must_set_password').notNull().default(false),
    /**
     * An operator's lock (docs/decisions/auth.md "Wrong passwords"): login and clean-data answer 423 until then, and a
     * password reset by mail lifts it. Wrong passwords never set it: they are slowed down instead.
     */
    lockedUntil: epochMs('locked_until'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('accounts_email_uq').on(t.email)],
);

/**
 * Wrong passwords per (email, purpose, client address): that address's backoff (modules/auth/password-throttle.ts).
 * Keyed by the email typed, not the account, so an unknown email is slowed down alike (no account enumeration).
 * `purpose` is `login` or `clean_data`.
 */
export const passwordThrottles = pgTable(
  'password_throttles',
  {
    email: text('email').notNull(),
    purpose: text('purpose', { enum: ['login', 'clean_data'] }).notNull(),
    clientIp: text('client_ip').notNull(),
    failures: integer('failures').notNull(),
    blockedUntil: epochMs('blocked_until'),
    lastFailureAt: epochMs('last_failure_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.email, t.purpose, t.clientIp] }), index('password_throttles_last_idx').on(t.lastFailureAt)],
);

/**
 * Wrong passwords per (email, purpose) from every address together: the email's own backoff, which only the
 * addresses with failures in {@link passwordThrottles} must wait, never a fresh one (modules/auth/password-throttle.ts).
 */
export const passwordEmailThrottles = pgTable(
  'password_email_throttles',
  {
    email: text('email').notNull(),
    purpose: text('purpose', { enum: ['login', 'clean_data'] }).notNull(),
    failures: integer('failures').notNull(),
    blockedUntil: epochMs('blocked_until'),
    lastFailureAt: epochMs('last_failure_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.email, t.purpose] }), index('password_email_throttles_last_idx').on(t.lastFailureAt)],
);

/** 6-digit codes for email verification and password reset; stored hashed. */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    purpose: text('purpose', { enum: ['register', 'reset'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: epochMs('expires_at').notNull(),
    usedAt: epochMs('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('verification_codes_email_idx').on(t.email, t.purpose)],
);

/** Rotating refresh tokens (SHA-256 of the token). A reused token revokes its whole family. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    familyId: text('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: epochMs('expires_at').notNull(),
    usedAt: epochMs('used_at'),
    revokedAt: epochMs('revoked_at'),
    /** The platform admin acting as the account in this family (admin/account/switch); null for its own sessions. */
    actingAdminId: integer('acting_admin_id'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_uq').on(t.tokenHash), index('refresh_tokens_family_idx').on(t.familyId)],
);

/** API keys made on the profile page (SHA-256 of the key; `prefix` is what the list shows). */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    expiresAt: epochMs('expires_at'),
    revokedAt: epochMs('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('api_keys_hash_uq').on(t.keyHash)],
);

/** Outgoing mail. Without SMTP_URL mail stays here (and in the log); with it a worker sends and marks it. */
export const outboxEmails = pgTable(
  'outbox_emails',
  {
    id: serial('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed', 'stored'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: epochMs('next_attempt_at').notNull().default(0),
    lastError: text('last_error'),
    sentAt: epochMs('sent_at'),
    /** The alert this mail notifies of (null for account mail); the console shows the alert's delivery state. */
    alertId: integer('alert_id'),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_emails_alert_idx').on(t.alertId)],
);

/**
 * Login-by-QR-code sessions (docs/decisions/auth.md "QR login"): opened by the waiting browser's event stream,
 * confirmed once by a logged-in device (`confirmedAccountId`), and handed to the waiting browser once
 * (`deliveredAt`, claimed in an UPDATE so that two replicas cannot both deliver). Expired rows are swept.
 */
export const qrLoginSessions = pgTable(
  'qr_login_sessions',
  {
    id: text('id').primaryKey(),
    expiresAt: epochMs('expires_at').notNull(),
    /** Where the waiting browser asked from: shown on the confirming device, so a code someone else shows is noticed. */
    requestIp: text('request_ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    confirmedAccountId: integer('confirmed_account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    confirmedAt: epochMs('confirmed_at'),
    deliveredAt: epochMs('delivered_at'),
    createdAt: createdAt(),
  },
  (t) => [index('qr_login_sessions_expires_idx').on(t.expiresAt)],
);
