/** Upserts the hardware-module catalogue on every start (demo or not), so projects always have modules to use. */
import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { tangramProducts, templateSensors } from '../../db/schema.js';
import { CATALOGUE } from './catalogue-data.js';

/**
 * Makes the `tangram_products` and `template_sensors` rows match {@link CATALOGUE}: inserts missing modules and
 * sensors, updates names, descriptions and units by model number / key. Idempotent; one transaction. A sensor
 * dropped from the catalogue is removed from its template (projects keep their own copies in project_sensors).
 */
export async function ensureCatalogue(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const m of CATALOGUE) {
      const [row] = await tx
        .insert(tangramProducts)
        .values({ modelNumber: m.modelNumber, name: m.name, description: m.description })
        .onConflictDoUpdate({
          target: tangramProducts.modelNumber,
          set: { name: sql`excluded.name`, description: sql`excluded.description` },
        })
        .returning({ id: tangramProducts.id });
      await tx
        .insert(templateSensors)
        .values(m.sensors.map((s) => ({ tangramProductId: row.id, key: s.key, name: s.name, unit: s.unit, valueCount: s.valueCount })))
        .onConflictDoUpdate({
          target: [templateSensors.tangramProductId, templateSensors.key],
          set: { name: sql`excluded.name`, unit: sql`excluded.unit`, valueCount: sql`excluded.value_count` },
        });
      await tx.delete(templateSensors).where(
        and(
          eq(templateSensors.tangramProductId, row.id),
          notInArray(
            templateSensors.key,
            m.sensors.map((s) => s.key),
          ),
        ),
      );
    }
  });
}
