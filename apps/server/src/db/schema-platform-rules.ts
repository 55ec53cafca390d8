/**
 * Platform rules (docs/platform-rules.md): the rules with their draft and applied graphs, the trace of their runs,
 * the claimed schedule fires (one row per rule and due time: a fire runs once across replicas) and each tenant's
 * engine limits. Part of the one Drizzle schema: schema.ts re-exports this file.
 */
import {
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { FLOW_RUN_OUTCOMES, PLATFORM_RULE_STATUSES, type TEngineConfig, type TFlowCommand, type TFlowGraph } from '@tessera/contracts';
import { createdAt, epochMs, updatedAt } from './columns.js';
import { tenants } from './schema-accounts.js';

/**
 * A platform rule: its `draft` as last saved by the editor (any shape, validated at apply), the `applied` graph
 * that runs (version `version`, null until the first good apply), its stored status (`queuing` is worked out
 * live), and the problems of the last apply that failed.
 */
export const platformRules = pgTable(
  'platform_rules',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    status: text('status', { enum: PLATFORM_RULE_STATUSES }).notNull().default('pending'),
    draft: jsonb('draft').$type<{ nodes: unknown[]; edges: unknown[] }>().notNull(),
    applied: jsonb('applied').$type<TFlowGraph>(),
    version: integer('version').notNull().default(0),
    triggerKind: text('trigger_kind', { enum: ['telemetry', 'status', 'schedule', 'manual'] }),
    problems: jsonb('problems').$type<{ node_id: string | null; message: string }[]>().notNull().default([]),
    lastRunAt: epochMs('last_run_at'),
    /**
     * While `stopping`: a replica with runs of the rule still in flight holds the stop until this time (epoch ms),
     * renewing it each second; the stop settles to `stopped` once no replica holds it.
     */
    heldUntil: epochMs('held_until'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('platform_rules_tenant_name_uq').on(t.tenantId, t.name), index('platform_rules_status_idx').on(t.status)],
);

/**
 * One run of a platform rule: the trigger's values, each node's step, the side effects, the outcome, and how many
 * runs of the same kind were sampled out since the one traced before it (flows/trace-sampler.ts). Pruned to each
 * rule's newest `trace_runs` at every trace write, over the (rule_id, id) index.
 */
export const platformRuleRuns = pgTable(
  'platform_rule_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    ruleId: integer('rule_id')
      .notNull()
      .references(() => platformRules.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    trigger: jsonb('trigger').$type<Record<string, unknown>>().notNull(),
    outcome: text('outcome', { enum: FLOW_RUN_OUTCOMES }).notNull(),
    error: text('error'),
    replay: boolean('replay').notNull().default(false),
    startedAt: epochMs('started_at').notNull(),
    durationMs: doublePrecision('duration_ms').notNull(),
    steps: jsonb('steps').$type<unknown[]>().notNull(),
    effects: jsonb('effects').$type<unknown[]>().notNull().default([]),
    untracedBefore: integer('untraced_before').notNull().default(0),
  },
  (t) => [index('platform_rule_runs_rule_idx').on(t.ruleId, t.id), index('platform_rule_runs_started_idx').on(t.startedAt)],
);

/** A schedule fire claimed by one replica: the primary key makes the claim, so a due time runs once. */
export const platformRuleFires = pgTable(
  'platform_rule_fires',
  {
    ruleId: integer('rule_id')
      .notNull()
      .references(() => platformRules.id, { onDelete: 'cascade' }),
    fireAt: epochMs('fire_at').notNull(),
    /** `fired` (claimed and run), `missed` (due while no replica ran, past the grace window). */
    state: text('state', { enum: ['fired', 'missed'] }).notNull(),
    claimedAt: epochMs('claimed_at').notNull(),
    runId: epochMs('run_id'),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.fireAt] })],
);

/**
 * The command schedule a `deviceSchedulerParallelControl` node set (one per rule and node; its next run replaces
 * it): the command, the devices (Tangram IDs, looked up in the rule's tenant at each send), the window [start_at, end_at] and the repeat. `next_at`
 * is the next due send (null when none is left); a replica claims a send by moving `next_at` on from the value it
 * read (compare and set), so each send happens once across replicas.
 */
export const platformCommandSchedules = pgTable(
  'platform_command_schedules',
  {
    ruleId: integer('rule_id')
      .notNull()
      .references(() => platformRules.id, { onDelete: 'cascade' }),
    nodeId: text('node_id').notNull(),
    tenantId: integer('tenant_id').notNull(),
    tangramIds: jsonb('tangram_ids').$type<string[]>().notNull(),
    command: jsonb('command').$type<TFlowCommand>().notNull(),
    startAt: epochMs('start_at').notNull(),
    endAt: epochMs('end_at').notNull(),
    repeatCron: text('repeat_cron'),
    timeZone: text('time_zone').notNull(),
    nextAt: epochMs('next_at'),
    lastSentAt: epochMs('last_sent_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.nodeId] }), index('platform_command_schedules_next_idx').on(t.nextAt)],
);

/** A tenant's engine limits (engineConfig); a tenant without a row has DEFAULT_ENGINE_CONFIG. */
export const platformEngineConfigs = pgTable('platform_engine_configs', {
  tenantId: integer('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  config: jsonb('config').$type<TEngineConfig>().notNull(),
  updatedAt: updatedAt(),
});
