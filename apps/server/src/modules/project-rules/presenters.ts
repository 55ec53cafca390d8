/** Rows → API shapes of the rules routes (never a database row on the wire). */
import type { TBlocklyProgram, TBlocklyProgramSummary, TSimpleRule } from '@tessera/contracts';
import type { projectBlocklyPrograms, projectSimpleRules } from '../../db/schema.js';

/** A simple-rule row. */
export type TSimpleRuleRow = typeof projectSimpleRules.$inferSelect;
/** A Blockly-program row. */
export type TProgramRow = typeof projectBlocklyPrograms.$inferSelect;

/** ZSimpleRule of a row. */
export function presentSimpleRule(r: TSimpleRuleRow): TSimpleRule {
  return {
    id: r.id,
    project_id: r.projectId,
    name: r.name,
    enabled: r.enabled,
    key: r.key,
    slot: r.slot,
    op: r.op,
    threshold: r.threshold,
    value: r.value,
    duration_s: r.durationS,
    level: r.level,
    message: r.message,
    notify_email: r.notifyEmail,
    notify_line: r.notifyLine,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

/** ZBlocklyProgramSummary of a row (the list). */
export function presentProgramSummary(r: TProgramRow): TBlocklyProgramSummary {
  return {
    id: r.id,
    project_id: r.projectId,
    name: r.name,
    enabled: r.enabled,
    ok: r.program !== null,
    error_count: r.errors.length,
    compiled_at: r.compiledAt,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

/** ZBlocklyProgram of a row: the summary, the workspace and the last compile's program or errors. */
export function presentProgram(r: TProgramRow): TBlocklyProgram {
  return { ...presentProgramSummary(r), workspace: r.workspace, program: r.program, errors: r.errors };
}
