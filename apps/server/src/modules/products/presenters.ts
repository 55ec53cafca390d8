/** Response shapes of the products module (contracts' ZProduct, ZProductClass, ZTangramProduct). Never a raw row. */
import type { TProduct, TProductClass, TTangramProduct, TTemplateSensor } from '@tessera/contracts';
import type { productClasses, products, tangramProducts, templateSensors } from '../../db/schema.js';

type TProductRow = typeof products.$inferSelect;
type TTemplateSensorRow = typeof templateSensors.$inferSelect;

/** A product row plus its class name → ZProduct. */
export function presentProduct(row: TProductRow, className: string | null): TProduct {
  return {
    id: row.id,
    name: row.name,
    model: row.model,
    number: row.number,
    model_number: row.modelNumber,
    class_id: row.classId,
    class_name: className,
    description: row.description,
    image_url: row.imageUrl,
    created_at: row.createdAt,
  };
}

/** A class row plus how many products use it → ZProductClass. */
export function presentProductClass(row: typeof productClasses.$inferSelect, productCount: number): TProductClass {
  return { id: row.id, name: row.name, product_count: productCount };
}

/** A template sensor row → ZTemplateSensor. */
export function presentTemplateSensor(row: TTemplateSensorRow): TTemplateSensor {
  return { id: row.id, key: row.key, name: row.name, unit: row.unit, value_count: row.valueCount };
}

/** A hardware module with its sensors → ZTangramProduct. */
export function presentTangramProduct(row: typeof tangramProducts.$inferSelect, sensors: TTemplateSensorRow[]): TTangramProduct {
  return {
    id: row.id,
    name: row.name,
    model_number: row.modelNumber,
    description: row.description,
    sensors: sensors.map(presentTemplateSensor),
  };
}
