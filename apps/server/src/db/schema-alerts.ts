/**
 * Alert tables (docs/rules.md, docs/decisions/alerts.md). Part of the one Drizzle schema: schema.ts
 * re-exports this file, and the same migrations run on PGlite and PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ALERT_LEVELS, ALERT_RESOLVE_REASONS, ALERT_RULE_KINDS, ALERT_STATES } from '@tessera/contracts';
import { epochMs } from './columns.js';
import { accounts, tenants } from './schema-accounts.js';
import { devices, products, projects } from './schema-catalogue.js';

/**
 * Alerts raised by rules for devices. At most one active (open or acknowledged) alert per (rule kind, rule id,
 * rule index, device): the partial unique index `alerts_active_uq` holds that even when two replicas evaluate the
 * same rule at once — the second insert conflicts and becomes an update of the first. `product_id` and
 * `project_id` are copied from the device's project when the alert opens so statistics need no join.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    ruleKind: text('rule_kind', { enum: ALERT_RULE_KINDS }).notNull(),
    ruleId: integer('rule_id').notNull(),
    ruleIndex: integer('rule_index').notNull().default(0),
    ruleName: text('rule_name').notNull(),
    level: text('level', { enum: ALERT_LEVELS }).notNull(),
    message: text('message').notNull(),
    state: text('state', { enum: ALERT_STATES }).notNull().default('open'),
    triggerKey: text('trigger_key'),
    triggerValue: doublePrecision('trigger_value'),
    firstSeenAt: epochMs('first_seen_at').notNull(),
    lastSeenAt: epochMs('last_seen_at').notNull(),
    count: integer('count').notNull().default(1),
    /** Last time this alert's notifications were sent (null: never, e.g. held back while flapping). */
    notifiedAt: epochMs('notified_at'),
    flapping: boolean('flapping').notNull().default(false),
    acknowledgedAt: epochMs('acknowledged_at'),
    acknowledgedBy: integer('acknowledged_by').references(() => accounts.id, { onDelete: 'set null' }),
    resolvedAt: epochMs('resolved_at'),
    resolvedBy: integer('resolved_by').references(() => accounts.id, { onDelete: 'set null' }),
    resolvedReason: text('resolved_reason', { enum: ALERT_RESOLVE_REASONS }),
  },
  (t) => [
    uniqueIndex('alerts_active_uq').on(t.ruleKind, t.ruleId, t.ruleIndex, t.deviceId).where(sql`state <> 'resolved'`),
    index('alerts_tenant_first_seen_idx').on(t.tenantId, t.firstSeenAt),
    index('alerts_device_first_seen_idx').on(t.deviceId, t.firstSeenAt),
    index('alerts_project_first_seen_idx').on(t.projectId, t.firstSeenAt),
  ],
);

/**
 * What the rule engine remembers per (rule, device) between evaluations, so that edge triggers, `held` windows and
 * out-of-order points behave the same after a restart and on every replica: the last definite truth of the
 * condition, when it last changed, and the ts of the newest point evaluated. Written only when something changes.
 */
export const alertRuleStates = pgTable(
  'alert_rule_states',
  {
    ruleKind: text('rule_kind', { enum: ALERT_RULE_KINDS }).notNull(),
    ruleId: integer('rule_id').notNull(),
    ruleIndex: integer('rule_index').notNull().default(0),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    active: boolean('active').notNull(),
    changedAt: epochMs('changed_at').notNull(),
    lastPointTs: epochMs('last_point_ts').notNull(),
    /** When the condition last fired its actions (level-trigger re-notification interval counts from here). */
    firedAt: epochMs('fired_at'),
  },
  (t) => [primaryKey({ columns: [t.ruleKind, t.ruleId, t.ruleIndex, t.deviceId] }), index('alert_rule_states_device_idx').on(t.deviceId)],
);
