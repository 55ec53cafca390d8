/** Products, product classes and the hardware-module catalogue (spec §3, §5, §7 `/frontstage/v1/products`, template). */
import { z } from 'zod';
import { ZId, zIntText } from './input.js';
import { DESCRIPTION_MAX, MAX_PAGE, MODEL_MAX, NAME_MAX, NUMBER_MAX, TANGRAM_PRODUCTS_PAGE_SIZE } from './limits.js';
import { ZImageUrl } from './images.js';
import { zPage } from './pagination.js';

const ZName = z.string().trim().min(1).max(NAME_MAX);

/** POST products. `model` ≤ 32, `number` ≤ 32 (§5); `image_url` is one answered by image/upload. */
export const ZProductCreate = z.object({
  name: ZName,
  model: z.string().trim().min(1).max(MODEL_MAX),
  number: z.string().trim().min(1).max(NUMBER_MAX),
  class_id: ZId.nullable().optional(),
  description: z.string().trim().max(DESCRIPTION_MAX).optional(),
  image_url: ZImageUrl.nullable().optional(),
});
export type TProductCreate = z.infer<typeof ZProductCreate>;

/** PUT products/{id}. */
export const ZProductUpdate = ZProductCreate.partial();
export type TProductUpdate = z.infer<typeof ZProductUpdate>;

/** A product as presented. `model_number` is the 4-hex part of its devices' Tangram IDs. */
export const ZProduct = z.object({
  id: z.number().int(),
  name: z.string(),
  model: z.string(),
  number: z.string(),
  model_number: z.string(),
  class_id: z.number().int().nullable(),
  class_name: z.string().nullable(),
  description: z.string(),
  image_url: z.string().nullable(),
  created_at: z.number(),
});
export type TProduct = z.infer<typeof ZProduct>;

/** POST/PUT products/classes. */
export const ZProductClassInput = z.object({ name: ZName });
export type TProductClassInput = z.infer<typeof ZProductClassInput>;
/** A product class as presented; `product_count` says whether DELETE would be refused (409 IN_USE). */
export const ZProductClass = z.object({ id: z.number().int(), name: z.string(), product_count: z.number().int() });
export type TProductClass = z.infer<typeof ZProductClass>;
/** GET products/classes: every class of the tenant (a short list, not paged), by name. */
export const ZProductClassList = z.array(ZProductClass);

/** GET products: a page of products. */
export const ZProductList = zPage(ZProduct);

/** One entry of GET products/catalog: the id and name of a product, for selects. */
export const ZProductCatalogItem = z.object({ id: z.number().int(), name: z.string(), model_number: z.string() });
export type TProductCatalogItem = z.infer<typeof ZProductCatalogItem>;
/** GET products/catalog: every product of the tenant, by name (not paged). */
export const ZProductCatalog = z.array(ZProductCatalogItem);

/** A template sensor of a hardware module: the telemetry keys a device of that module reports. */
export const ZTemplateSensor = z.object({
  id: z.number().int(),
  key: z.string(),
  name: z.string(),
  unit: z.string(),
  value_count: z.number().int().min(1).max(3),
});
export type TTemplateSensor = z.infer<typeof ZTemplateSensor>;

/** A hardware module of the catalogue (template tangramProducts). */
export const ZTangramProduct = z.object({
  id: z.number().int(),
  name: z.string(),
  model_number: z.string(),
  description: z.string(),
  sensors: z.array(ZTemplateSensor),
});
export type TTangramProduct = z.infer<typeof ZTangramProduct>;

/** `?page=&q=` of template tangramProducts; the page size is fixed at {@link TANGRAM_PRODUCTS_PAGE_SIZE} (§9). */
export const ZTangramProductQuery = z.object({
  page: zIntText(1, MAX_PAGE).default(1),
  q: z.string().trim().max(64).optional(),
});

/** GET template/tangramProducts/{id}/sensors. */
export const ZTemplateSensorList = z.array(ZTemplateSensor);

/** §3 "Tangram products list: total_items, total_pages, data". */
export const ZTangramProductList = z.object({
  data: z.array(ZTangramProduct),
  page: z.number().int(),
  limit: z.number().int(),
  total_items: z.number().int(),
  total_pages: z.number().int(),
});
export type TTangramProductList = z.infer<typeof ZTangramProductList>;

/**
 * Product functions (§7 `GET/PUT projects/profile/product/functions/{id}`, `{id}` = product id; contents "not shown"):
 * the platform capabilities a product's devices use, switched per product (docs/decisions/catalogue.md).
 * - `remote_control`: the console may send commands to its devices (getDeviceInfo, sensorCommand);
 * - `ota`: its devices take firmware updates over the air;
 * - `status_decoding`: the 40-bit status word is decoded by the project's status groups;
 * - `alerts`: rules may raise alerts and notifications for its devices;
 * - `data_export`: telemetry may be downloaded as CSV.
 */
export const ZProductFunctions = z.strictObject({
  remote_control: z.boolean(),
  ota: z.boolean(),
  status_decoding: z.boolean(),
  alerts: z.boolean(),
  data_export: z.boolean(),
});
export type TProductFunctions = z.infer<typeof ZProductFunctions>;

/** The names of the product functions, in display order. */
export const PRODUCT_FUNCTION_KEYS = Object.keys(ZProductFunctions.shape) as (keyof TProductFunctions)[];

/** A new product's functions: everything a device needs to be monitored and controlled, OTA off until firmware exists. */
export const DEFAULT_PRODUCT_FUNCTIONS: TProductFunctions = {
  remote_control: true,
  ota: false,
  status_decoding: true,
  alerts: true,
  data_export: true,
};

/** GET/PUT answer: the product's id and its functions. */
export const ZProductFunctionsView = z.object({ product_id: z.number().int(), functions: ZProductFunctions });
export type TProductFunctionsView = z.infer<typeof ZProductFunctionsView>;
