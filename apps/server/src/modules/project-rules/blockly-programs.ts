/**
 * Blockly programs (spec §7 rules "blocklys list, add, get, put, delete, POST compile"). Saving compiles: the row
 * keeps the workspace as the console sent it plus the program, or null and the errors. A program with errors is
 * saved all the same (a draft); only a compiled, enabled program runs. At most BLOCKLY_PROGRAMS_MAX per project,
 * names unique per project.
 */
import { and, asc, count, eq } from 'drizzle-orm';
import {
  BLOCKLY_PROGRAMS_MAX,
  RuleErrorCode,
  type TBlocklyProgram,
  type TBlocklyProgramInput,
  type TBlocklyProgramList,
  type TBlocklyProgramUpdate,
  type TBlocklyWorkspace,
  type TCompileResult,
  type TListQuery,
} from '@tessera/contracts';
import { pageOf } from '../../db/paging.js';
import type { Db } from '../../db/client.js';
import { conflict, notFound } from '../../core/errors.js';
import { projectBlocklyPrograms } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/sql-helpers.js';
import { loadCompileContext } from './compile-context.js';
import { compileWorkspace } from './compiler/compile.js';
import { ownedProject, type TRulesProject } from './ownership.js';
import { presentProgram, presentProgramSummary, type TProgramRow } from './presenters.js';
import type { TRuleChanges } from '../../core/context.js';

const nameTaken = (name: string) => conflict(`a program named "${name}" already exists in this project`, RuleErrorCode.NameTaken);

/** POST blocklys/compile: compiles `workspace` against the project without saving. @throws AppError 404 (project). */
export async function compileForProject(
  db: Db,
  tenantId: number,
  projectId: number,
  workspace: TBlocklyWorkspace,
): Promise<TCompileResult> {
  const project = await ownedProject(db, tenantId, projectId);
  return compileWorkspace(workspace, await loadCompileContext(db, project));
}

/** GET blocklys: a page of the project's programs (no workspaces), oldest first. @throws AppError 404 (project). */
export async function listPrograms(db: Db, tenantId: number, projectId: number, query: TListQuery): Promise<TBlocklyProgramList> {
  await ownedProject(db, tenantId, projectId);
  const where = eq(projectBlocklyPrograms.projectId, projectId);
  return pageOf(
    query,
    db.select({ total: count() }).from(projectBlocklyPrograms).where(where),
    (limit, offset) =>
      db.select().from(projectBlocklyPrograms).where(where).orderBy(asc(projectBlocklyPrograms.id)).limit(limit).offset(offset),
    presentProgramSummary,
  );
}

/** GET blocklys/{ruleId}: the program as last saved. @throws AppError 404 (project or program). */
export async function getProgram(db: Db, tenantId: number, projectId: number, programId: number): Promise<TBlocklyProgram> {
  await ownedProject(db, tenantId, projectId);
  return presentProgram(await ownedProgram(db, projectId, programId));
}

/** POST blocklys: compiles and stores a new program. @throws AppError 404 (project), 409 (name taken, limit reached). */
export async function createProgram(
  db: Db,
  changes: TRuleChanges,
  tenantId: number,
  projectId: number,
  input: TBlocklyProgramInput,
): Promise<TBlocklyProgram> {
  try {
    const program = await db.transaction(async (tx) => {
      const project = await ownedProject(tx, tenantId, projectId, true);
      const [{ n }] = await tx.select({ n: count() }).from(projectBlocklyPrograms).where(eq(projectBlocklyPrograms.projectId, projectId));
      if (n >= BLOCKLY_PROGRAMS_MAX) throw conflict(`a project has at most ${BLOCKLY_PROGRAMS_MAX} programs`, RuleErrorCode.LimitReached);
      const now = Date.now();
      const [row] = await tx
        .insert(projectBlocklyPrograms)
        .values({
          projectId,
          name: input.name,
          enabled: input.enabled,
          ...(await compiled(tx, project, input.workspace, now)),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return presentProgram(row);
    });
    changes.projectChanged(projectId);
    return program;
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(input.name);
    throw err;
  }
}

/**
 * PUT blocklys/{ruleId}: changes the given fields and compiles again (the new workspace, or the stored one against
 * the project as it is now). @throws AppError 404 (project or program), 409 (name taken).
 */
export async function updateProgram(
  db: Db,
  changes: TRuleChanges,
  tenantId: number,
  projectId: number,
  programId: number,
  input: TBlocklyProgramUpdate,
): Promise<TBlocklyProgram> {
  const project = await ownedProject(db, tenantId, projectId);
  const current = await ownedProgram(db, projectId, programId);
  const now = Date.now();
  try {
    const [row] = await db
      .update(projectBlocklyPrograms)
      .set({
        name: input.name,
        enabled: input.enabled,
        ...(await compiled(db, project, input.workspace ?? current.workspace, now)),
        updatedAt: now,
      })
      .where(eq(projectBlocklyPrograms.id, current.id))
      .returning();
    changes.projectChanged(projectId);
    return presentProgram(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(input.name ?? current.name);
    throw err;
  }
}

/** DELETE blocklys/{ruleId}. @throws AppError 404 (project or program). */
export async function deleteProgram(db: Db, changes: TRuleChanges, tenantId: number, projectId: number, programId: number): Promise<void> {
  await ownedProject(db, tenantId, projectId);
  const program = await ownedProgram(db, projectId, programId);
  await db.delete(projectBlocklyPrograms).where(eq(projectBlocklyPrograms.id, program.id));
  changes.projectChanged(projectId);
}

/** The stored columns of a compile of `workspace`. */
async function compiled(db: Db, project: TRulesProject, workspace: Record<string, unknown>, now: number) {
  const result = compileWorkspace(workspace, await loadCompileContext(db, project));
  return { workspace, program: result.program, errors: result.errors, compiledAt: now };
}

async function ownedProgram(db: Db, projectId: number, programId: number): Promise<TProgramRow> {
  const [row] = await db
    .select()
    .from(projectBlocklyPrograms)
    .where(and(eq(projectBlocklyPrograms.id, programId), eq(projectBlocklyPrograms.projectId, projectId)));
  if (!row) throw notFound('program');
  return row;
}
