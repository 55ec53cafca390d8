/** The project facts a Blockly workspace compiles against: sensors, status definition, blockly-setting properties. */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { projectSensors } from '../../db/schema.js';
import { readProperties } from './blockly-setting.js';
import type { TCompileContext } from './compiler/compile.js';
import type { TRulesProject } from './ownership.js';

/** Loads the compile context of `project` (already checked to be the caller's). */
export async function loadCompileContext(db: Db, project: TRulesProject): Promise<TCompileContext> {
  const sensors = await db
    .select({ key: projectSensors.key, value_count: projectSensors.valueCount, value_type: projectSensors.valueType })
    .from(projectSensors)
    .where(eq(projectSensors.projectId, project.id));
  const properties = await readProperties(db, project.id);
  return { sensors, statusGroups: project.statusGroups, properties: properties.map((p) => p.name) };
}
