/**
 * Sending a scheduled command this replica claimed (docs/platform-rules.md "Scheduled commands";
 * command-schedules.ts claims it): the command to each device of the schedule, recorded as a run of its rule.
 */
import { FLOW_PARALLEL_CONCURRENCY_DEFAULT, type TFlowStep } from '@tessera/contracts';
import { and, eq } from 'drizzle-orm';
import pMap from 'p-map';
import { platformCommandSchedules } from '../../../db/schema.js';
import type { TClaimedSend } from './command-schedules.js';
import { summarise } from './compile-flow.js';
import type { TRunRow } from './flow-store.js';
import { liveEffects, type TLiveEffectsDeps } from './live-effects.js';
import { SCHEDULE_GRACE_MS } from './scheduler.js';

/** How long each scheduled command waits for its device's reply, ms. */
export const SCHEDULED_COMMAND_TIMEOUT_MS = 10_000;

/** The node of `applied` a schedule belongs to, when the applied graph still has it. */
function scheduleNodeIn(applied: unknown, nodeId: string): boolean {
  const nodes = (applied as { nodes?: { id?: unknown; type?: unknown }[] } | null)?.nodes ?? [];
  return nodes.some((n) => n.id === nodeId && n.type === 'deviceSchedulerParallelControl');
}

/**
 * Sends a claimed send: the command to each device of the schedule still in the rule's tenant, at most
 * FLOW_PARALLEL_CONCURRENCY_DEFAULT at once, each waiting SCHEDULED_COMMAND_TIMEOUT_MS for its reply. Answers the
 * run to record (trigger `scheduled_node` and `fire_at`, one step with each device's outcome), or null when nothing
 * is sent: the rule does not run (skipped) or its applied graph no longer has the node (the schedule is dropped).
 * A send found more than SCHEDULE_GRACE_MS late (no replica ran) is recorded as an error run, not sent.
 */
export async function sendClaimed(deps: TLiveEffectsDeps, send: TClaimedSend): Promise<TRunRow | null> {
  const { schedule, dueAt, rule } = send;
  if (rule.status !== 'running') return null;
  if (!scheduleNodeIn(rule.applied, schedule.nodeId)) {
    await deps.db
      .delete(platformCommandSchedules)
      .where(and(eq(platformCommandSchedules.ruleId, rule.id), eq(platformCommandSchedules.nodeId, schedule.nodeId)));
    return null;
  }
  const startedAt = deps.now();
  const row = (outcome: TRunRow['outcome'], error: string | null, steps: TFlowStep[]): TRunRow => ({
    tenantId: rule.tenantId,
    ruleId: rule.id,
    version: rule.version,
    trigger: { tangram_id: null, key: null, ts: null, values: null, status: null, fire_at: dueAt, scheduled_node: schedule.nodeId },
    outcome,
    error,
    replay: false,
    startedAt,
    durationMs: deps.now() - startedAt,
    steps,
    effects: [],
  });
  if (startedAt - dueAt > SCHEDULE_GRACE_MS)
    return row('error', `missed: the send due at ${new Date(dueAt).toISOString()} found no replica running in time`, []);
  const effects = liveEffects(deps, rule);
  const devices = await effects.devicesIn({ kind: 'devices', tangram_ids: schedule.tangramIds });
  const results = await pMap(devices, (d) => effects.command(schedule.nodeId, d, schedule.command, SCHEDULED_COMMAND_TIMEOUT_MS), {
    concurrency: FLOW_PARALLEL_CONCURRENCY_DEFAULT,
  });
  const output = summarise(results);
  const step: TFlowStep = {
    node_id: schedule.nodeId,
    node_type: 'deviceSchedulerParallelControl',
    input: { devices: devices.length, command: schedule.command, due_at: dueAt },
    output,
    variables: {},
    duration_ms: deps.now() - startedAt,
    error: null,
  };
  return row(output.ok ? 'ok' : 'error', output.ok ? null : `${output.failed} of ${output.sent} devices did not answer ok`, [step]);
}
