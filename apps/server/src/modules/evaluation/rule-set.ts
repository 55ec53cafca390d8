/**
 * What the engine runs for a project, read in one go and compiled once (docs/rules.md "Which rules run"): enabled
 * simple rules (as programs, simpleRuleToProgram), enabled Blockly programs whose last compile is ok, the blockly
 * setting's properties, the rule type and re-notify interval, and every enabled app rule of the project's devices.
 * A stored program the interpreter refuses is skipped and logged, never run.
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import { simpleRuleToProgram, type TAlertRuleKind } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { deviceUserRules, devices, projectBlocklyPrograms, projects, projectSimpleRules } from '../../db/schema.js';
import { readProperties } from '../project-rules/blockly-setting.js';
import { appRuleToProgram } from './app-rules.js';
import { compileRuleProgram, type TCompiledProgram } from './compile-program.js';

/** One compiled rule source: a simple rule, a Blockly program, or an app rule. */
export interface TRuleUnit {
  kind: TAlertRuleKind;
  id: number;
  /** Its name (alerts' rule_name; a program's rules after the first get ` #n`). */
  name: string;
  program: TCompiledProgram;
  /** App rules: the account that owns the rule and alone hears of it. */
  ownerAccountId?: number;
  /** App rules: their own repeat interval (cooldown_s), which also makes them level-triggered. */
  repeatMs?: number;
}

/** A project's rules as the engine runs them. */
export interface TProjectRules {
  projectId: number;
  tenantId: number;
  productId: number;
  ruleType: 'level' | 'edge';
  /** The level-trigger re-notify interval (projects.rule_renotify_s), ms. */
  renotifyMs: number;
  /** Simple rules and programs (every device of the project). */
  units: TRuleUnit[];
  /** App rules by device id. */
  appUnits: Map<number, TRuleUnit[]>;
  /** Some rule tests `changed`: a device's previous values of non-numeric keys are read with its latest ones. */
  usesChanged: boolean;
}

/** True when the project has no rule at all that could fire for `deviceId`. */
export function hasNoRulesFor(rules: TProjectRules, deviceId: number): boolean {
  return rules.units.length === 0 && !rules.appUnits.has(deviceId);
}

/** The alert rule name of rule `index` of a unit. */
export function ruleNameOf(unit: TRuleUnit, index: number): string {
  return index === 0 ? unit.name : `${unit.name} #${index + 1}`;
}

/** Reads and compiles the rules of project `projectId`; null when the project does not exist. */
export async function loadProjectRules(db: Db, projectId: number, log: Logger): Promise<TProjectRules | null> {
  const [project] = await db
    .select({ tenantId: projects.tenantId, productId: projects.productId, ruleType: projects.ruleType, renotifyS: projects.ruleRenotifyS })
    .from(projects)
    .where(eq(projects.id, projectId));
  if (!project) return null;
  const [simples, programs, properties, apps] = await Promise.all([
    db
      .select()
      .from(projectSimpleRules)
      .where(and(eq(projectSimpleRules.projectId, projectId), eq(projectSimpleRules.enabled, true))),
    db
      .select({ id: projectBlocklyPrograms.id, name: projectBlocklyPrograms.name, program: projectBlocklyPrograms.program })
      .from(projectBlocklyPrograms)
      .where(
        and(
          eq(projectBlocklyPrograms.projectId, projectId),
          eq(projectBlocklyPrograms.enabled, true),
          isNotNull(projectBlocklyPrograms.program),
        ),
      ),
    readProperties(db, projectId),
    db
      .select({ rule: deviceUserRules })
      .from(deviceUserRules)
      .innerJoin(devices, eq(devices.id, deviceUserRules.deviceId))
      .where(and(eq(devices.projectId, projectId), eq(deviceUserRules.enabled, true))),
  ]);
  const props = new Map(properties.map((p) => [p.name, p.value]));
  const compile = (kind: TAlertRuleKind, id: number, raw: unknown): TCompiledProgram | null => {
    const r = compileRuleProgram(raw, props);
    if (r.ok) return r.program;
    log.warn({ projectId, kind, ruleId: id, error: r.error }, 'rule engine: a stored rule is not a runnable program; skipped');
    return null;
  };
  const units: TRuleUnit[] = [];
  for (const s of simples) {
    const program = compile(
      'simple',
      s.id,
      simpleRuleToProgram({ ...s, duration_s: s.durationS, notify_email: s.notifyEmail, notify_line: s.notifyLine }),
    );
    if (program) units.push({ kind: 'simple', id: s.id, name: s.name, program });
  }
  for (const p of programs) {
    const program = compile('program', p.id, p.program);
    if (program) units.push({ kind: 'program', id: p.id, name: p.name, program });
  }
  const appUnits = new Map<number, TRuleUnit[]>();
  for (const { rule } of apps) {
    const program = compile('app', rule.id, appRuleToProgram(rule));
    if (!program) continue;
    const unit: TRuleUnit = {
      kind: 'app',
      id: rule.id,
      name: rule.name,
      program,
      ownerAccountId: rule.accountId,
      repeatMs: rule.cooldownS * 1000,
    };
    const list = appUnits.get(rule.deviceId);
    if (list) list.push(unit);
    else appUnits.set(rule.deviceId, [unit]);
  }
  const momentary = (u: TRuleUnit) => u.program.rules.some((r) => r.momentary);
  return {
    projectId,
    usesChanged: units.some(momentary) || [...appUnits.values()].some((list) => list.some(momentary)),
    tenantId: project.tenantId,
    productId: project.productId,
    ruleType: project.ruleType,
    renotifyMs: project.renotifyS * 1000,
    units,
    appUnits,
  };
}
