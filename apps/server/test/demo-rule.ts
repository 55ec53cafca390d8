/**
 * The demo's "Line overheating" platform rule, applied and running in a project, on the key a test or benchmark
 * loads: shared by the stopping test and bench/flows (stop, ingest cost).
 */
import { ZFlowGraph } from '@tessera/contracts';
import type { Db } from '../src/db/client.js';
import { platformRules } from '../src/db/schema.js';
import { demoPlatformRules } from '../src/modules/demo/demo-data.js';

/**
 * Inserts the demo platform rule of `project` running on `key` (default `temperature`, the demo's own); answers its id.
 * @throws when the demo no longer has that rule (its graph fails ZFlowGraph).
 */
export async function insertRunningDemoRule(
  db: Db,
  project: { projectId: number; tenantId: number },
  key = 'temperature',
): Promise<number> {
  const [demo] = demoPlatformRules(project.projectId);
  const graph = ZFlowGraph.parse(JSON.parse(JSON.stringify(demo?.graph).replaceAll('"keys":["temperature"]', `"keys":["${key}"]`)));
  const [rule] = await db
    .insert(platformRules)
    .values({
      tenantId: project.tenantId,
      name: 'Line overheating',
      status: 'running',
      draft: graph,
      applied: graph,
      version: 1,
      triggerKind: 'telemetry',
    })
    .returning({ id: platformRules.id });
  return rule.id;
}
