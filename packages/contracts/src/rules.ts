/**
 * Project rules (spec §2 project tab "rule", §3 "Blockly setting", §4 rule type and "Blockly programs can be
 * compiled", §7 "rules: simples list, add, update, delete; blocklys list, add, get, put, delete, POST compile; blockly
 * setting GET and PUT"). The rule program tree is in `rules-program.ts`, the Blockly vocabulary in `rules-blocks.ts`.
 * Decisions and limits: docs/decisions/rules.md.
 */
import { z } from 'zod';
import { ZIdText } from './input.js';
import { API } from './api-paths.js';
import { NAME_MAX } from './limits.js';
import { zPage } from './pagination.js';
import { BLOCKLY_WORKSPACE_MAX_CHARS, ZCompileError } from './rules-blocks.js';
import {
  ALERT_LEVELS,
  RULE_WINDOW_MAX_S,
  SIMPLE_RULE_OPS,
  TELEMETRY_SLOTS,
  ZRuleMessage,
  ZRulePropertyName,
  ZRuleProgram,
  ZRuleValue,
} from './rules-program.js';
import { ZTelemetryKey } from './telemetry.js';

export * from './rules-blocks.js';
export * from './rules-program.js';
export * from './rules-values.js';

/** Simple rules per project. */
export const SIMPLE_RULES_MAX = 50;
/** Blockly programs per project. */
export const BLOCKLY_PROGRAMS_MAX = 20;
/** Properties in a project's blockly setting. */
export const BLOCKLY_PROPERTIES_MAX = 50;

/** Error codes of the rules routes (besides the common ones). */
export const RuleErrorCode = {
  /** 409: the project already has the most simple rules or programs allowed. */
  LimitReached: 'RULES_LIMIT_REACHED',
  /** 409: a rule or program of the same kind already has this name in the project. */
  NameTaken: 'RULE_NAME_TAKEN',
  /**
   * 400: the operator does not fit the key's value type (a numeric comparison on a string, boolean or json key, a
   * value test on a number key, `contains` on a boolean key), or the threshold / value does not fit the operator.
   */
  OpMismatch: 'RULE_OP_MISMATCH',
} as const;

/** Paths of the rules endpoints (project-scoped, vendor only). */
export const rulePaths = {
  simples: (projectId: number) => `${API.frontstage}/projects/${projectId}/rules/simples`,
  simple: (projectId: number, ruleId: number) => `${API.frontstage}/projects/${projectId}/rules/simples/${ruleId}`,
  blocklys: (projectId: number) => `${API.frontstage}/projects/${projectId}/rules/blocklys`,
  blockly: (projectId: number, programId: number) => `${API.frontstage}/projects/${projectId}/rules/blocklys/${programId}`,
  compile: (projectId: number) => `${API.frontstage}/projects/${projectId}/rules/blocklys/compile`,
  blocklySetting: (projectId: number) => `${API.frontstage}/projects/${projectId}/rules/blocklySetting`,
} as const;

/** `{id}` (project) and `{ruleId}` path parameters. */
export const ZProjectRuleParams = z.object({
  id: ZIdText,
  ruleId: ZIdText,
});

const ruleName = z.string().trim().min(1).max(NAME_MAX);

/** The fields of a simple rule without defaults (a PUT takes any subset). */
const simpleRuleFields = {
  name: ruleName,
  enabled: z.boolean(),
  key: ZTelemetryKey,
  slot: z.enum(TELEMETRY_SLOTS),
  /** A comparison (gt … neq) for a number key; a value test (equals, contains, changed) for any other. */
  op: z.enum(SIMPLE_RULE_OPS),
  /** The threshold of a comparison; null (or absent) for a value test. */
  threshold: z.number().finite().nullable(),
  /** What `equals` / `contains` compare with, of the key's type; null (or absent) for a comparison and `changed`. */
  value: ZRuleValue.nullable(),
  /** Seconds the comparison must hold before the rule fires; 0 = at once. */
  duration_s: z.number().int().min(0).max(RULE_WINDOW_MAX_S),
  level: z.enum(ALERT_LEVELS),
  message: ZRuleMessage,
  notify_email: z.boolean(),
  notify_line: z.boolean(),
};

/**
 * POST simples: "when telemetry `key`.`slot` `op` `threshold` (for `duration_s` seconds), raise an alert of `level`
 * with `message`, and notify the email list and/or LINE" — or, for a key whose values are not numbers, "when `key`
 * equals / contains `value`, or changed". `key` must be one of the project's sensors and `slot` within its values per
 * point; `op`, `threshold` and `value` must fit the key's value type (checked by the server: 400
 * `RULE_OP_MISMATCH` naming the field; docs/decisions/rules.md "Keys that are not numbers").
 */
export const ZSimpleRuleInput = z.object({
  ...simpleRuleFields,
  threshold: simpleRuleFields.threshold.default(null),
  value: simpleRuleFields.value.default(null),
  enabled: simpleRuleFields.enabled.default(true),
  slot: simpleRuleFields.slot.default('v1'),
  duration_s: simpleRuleFields.duration_s.default(0),
  notify_email: simpleRuleFields.notify_email.default(false),
  notify_line: simpleRuleFields.notify_line.default(false),
});
export type TSimpleRuleInput = z.infer<typeof ZSimpleRuleInput>;

/** PUT simples/{ruleId}: any subset of the fields. */
export const ZSimpleRuleUpdate = z.object(simpleRuleFields).partial();
export type TSimpleRuleUpdate = z.infer<typeof ZSimpleRuleUpdate>;

/** A simple rule as presented (times in epoch ms). */
export const ZSimpleRule = z.object({
  ...simpleRuleFields,
  id: z.number().int(),
  project_id: z.number().int(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type TSimpleRule = z.infer<typeof ZSimpleRule>;
/** GET simples: a page of the project's simple rules, oldest first. */
export const ZSimpleRuleList = zPage(ZSimpleRule);
export type TSimpleRuleList = z.infer<typeof ZSimpleRuleList>;

/**
 * A Blockly workspace as `Blockly.serialization.workspaces.save` writes it. Only its size is checked here (at most
 * {@link BLOCKLY_WORKSPACE_MAX_CHARS} characters of JSON); the blocks are read by the compiler, which reports
 * problems block by block. Unknown keys (variables, plugin state) are kept, so the console restores what it saved.
 */
export const ZBlocklyWorkspace = z
  .looseObject({
    blocks: z.looseObject({ languageVersion: z.number().optional(), blocks: z.array(z.record(z.string(), z.unknown())) }).optional(),
  })
  .refine((ws) => jsonLength(ws) <= BLOCKLY_WORKSPACE_MAX_CHARS, {
    message: `at most ${BLOCKLY_WORKSPACE_MAX_CHARS} characters of JSON`,
  });

/** The length of `value` as JSON; Infinity when it cannot be written (nested too deep for the stack). */
function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value).length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
export type TBlocklyWorkspace = z.infer<typeof ZBlocklyWorkspace>;

/** POST blocklys/compile: compiles a workspace without saving it. */
export const ZCompileRequest = z.object({ workspace: ZBlocklyWorkspace });
export type TCompileRequest = z.infer<typeof ZCompileRequest>;

/**
 * A compile answer (HTTP 200 either way: the request was fine, the program may not be). `ok` with the program and
 * no errors, or not `ok` with `program: null` and every error found, block by block.
 */
export const ZCompileResult = z.object({
  ok: z.boolean(),
  program: ZRuleProgram.nullable(),
  errors: z.array(ZCompileError),
});
export type TCompileResult = z.infer<typeof ZCompileResult>;

const programFields = { name: ruleName, enabled: z.boolean(), workspace: ZBlocklyWorkspace };
/** POST blocklys: a new program; the server compiles it and stores the workspace with the program or the errors. */
export const ZBlocklyProgramInput = z.object({ ...programFields, enabled: programFields.enabled.default(true) });
export type TBlocklyProgramInput = z.infer<typeof ZBlocklyProgramInput>;
/** PUT blocklys/{ruleId}: any subset; a new workspace is compiled again. */
export const ZBlocklyProgramUpdate = z.object(programFields).partial();
export type TBlocklyProgramUpdate = z.infer<typeof ZBlocklyProgramUpdate>;

const programSummaryFields = {
  id: z.number().int(),
  project_id: z.number().int(),
  name: z.string(),
  enabled: z.boolean(),
  /** True when the last compile succeeded (the program can run). */
  ok: z.boolean(),
  error_count: z.number().int(),
  compiled_at: z.number(),
  created_at: z.number(),
  updated_at: z.number(),
};
/** A program in the list (without its workspace). */
export const ZBlocklyProgramSummary = z.object(programSummaryFields);
export type TBlocklyProgramSummary = z.infer<typeof ZBlocklyProgramSummary>;
/** GET blocklys: a page of the project's programs, oldest first. */
export const ZBlocklyProgramList = zPage(ZBlocklyProgramSummary);
export type TBlocklyProgramList = z.infer<typeof ZBlocklyProgramList>;

/** GET blocklys/{ruleId} and the answer of POST/PUT: the workspace with its last compiled program or errors. */
export const ZBlocklyProgram = z.object({
  ...programSummaryFields,
  workspace: z.record(z.string(), z.unknown()),
  program: ZRuleProgram.nullable(),
  errors: z.array(ZCompileError),
});
export type TBlocklyProgram = z.infer<typeof ZBlocklyProgram>;

/** §3 "Blockly setting: properties, a list of items each with a numeric value". */
export const ZBlocklyProperty = z.object({ name: ZRulePropertyName, value: z.number().finite() });
export type TBlocklyProperty = z.infer<typeof ZBlocklyProperty>;

/** GET/PUT blocklySetting: at most {@link BLOCKLY_PROPERTIES_MAX} properties with unique names; PUT replaces the list. */
export const ZBlocklySetting = z.object({
  properties: z
    .array(ZBlocklyProperty)
    .max(BLOCKLY_PROPERTIES_MAX)
    .superRefine((props, ctx) => {
      const seen = new Set<string>();
      props.forEach((p, i) => {
        if (seen.has(p.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: 'duplicate name' });
        seen.add(p.name);
      });
    }),
});
export type TBlocklySetting = z.infer<typeof ZBlocklySetting>;
