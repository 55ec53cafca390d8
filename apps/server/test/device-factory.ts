/**
 * Device factory of the integration tests and the benchmarks: a tenant's product, project (sensors, status groups)
 * and devices inserted as rows — exactly what registration writes — each device with a known MQTT secret.
 * Tangram IDs are random, so tests sharing a broker (external mode) do not collide.
 */
import { randomBytes } from 'node:crypto';
import { composeTangramId, TANGRAM_PREFIX, type TStatusGroup, type TTelemetryValueType } from '@tessera/contracts';
import { randomSecret, sha256 } from '../src/core/crypto.js';
import type { Db } from '../src/db/client.js';
import { deviceAuthz, devices, products, projects, projectSensors, tangramProducts, tenants } from '../src/db/schema.js';

/** A sensor of a factory project. */
export interface TFactorySensor {
  key: string;
  unit?: string;
  valueCount?: number;
  enabled?: boolean;
  /** The type of the key's values (default `number`). */
  valueType?: TTelemetryValueType;
}

/** The default sensors: the simulator's keys (temperature, humidity, vibration ×3, current). */
export const FACTORY_SENSORS: readonly TFactorySensor[] = [
  { key: 'temperature', unit: '°C' },
  { key: 'humidity', unit: '%' },
  { key: 'vibration', unit: 'mm/s', valueCount: 3 },
  { key: 'current', unit: 'A' },
];

/** A device a test can connect as. */
export interface TBuiltDevice {
  id: number;
  tangramId: string;
  secret: string;
}

/** A project with devices. */
export interface TBuiltProject {
  tenantId: number;
  productId: number;
  projectId: number;
  devices: TBuiltDevice[];
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex').toUpperCase();

/**
 * Inserts a hardware module with a random model number of the Tangram ID's width (4 hex digits), drawing again when
 * the number is taken: a wider number would make every device registered through the API in its projects a 500.
 */
async function insertHardwareModule(db: Db): Promise<typeof tangramProducts.$inferSelect> {
  for (;;) {
    const [tp] = await db
      .insert(tangramProducts)
      .values({ name: `module ${hex(3)}`, modelNumber: hex(2) })
      .onConflictDoNothing({ target: tangramProducts.modelNumber })
      .returning();
    if (tp) return tp;
  }
}

/**
 * Inserts a product of `tenantId` with a random model number (4 hex digits), drawing again when the tenant has one
 * with it (a tenant's model numbers are unique: a test building many projects of one tenant met a taken one).
 */
async function insertProduct(db: Db, tenantId: number): Promise<typeof products.$inferSelect> {
  for (;;) {
    const [product] = await db
      .insert(products)
      .values({ tenantId, name: 'Sensor box', model: 'SB', number: '1', modelNumber: hex(2) })
      .onConflictDoNothing({ target: [products.tenantId, products.modelNumber] })
      .returning();
    if (product) return product;
  }
}

/**
 * Inserts a project of `tenantId` (a new tenant when absent) with `sensors` (default {@link FACTORY_SENSORS}),
 * `statusGroups` and `count` devices (default 1).
 */
export async function buildDeviceProject(
  db: Db,
  opts: { tenantId?: number; count?: number; sensors?: readonly TFactorySensor[]; statusGroups?: TStatusGroup[] } = {},
): Promise<TBuiltProject> {
  const tenantId =
    opts.tenantId ??
    (
      await db
        .insert(tenants)
        .values({ name: `tenant ${hex(3)}` })
        .returning()
    )[0].id;
  const tp = await insertHardwareModule(db);
  const product = await insertProduct(db, tenantId);
  const [project] = await db
    .insert(projects)
    .values({ tenantId, productId: product.id, tangramProductId: tp.id, name: `project ${hex(2)}`, statusGroups: opts.statusGroups ?? [] })
    .returning();
  await db.insert(projectSensors).values(
    (opts.sensors ?? FACTORY_SENSORS).map((s) => ({
      projectId: project.id,
      key: s.key,
      name: s.key,
      unit: s.unit ?? '',
      valueCount: s.valueCount ?? 1,
      enabled: s.enabled ?? true,
      valueType: s.valueType ?? 'number',
    })),
  );
  const built: TBuiltDevice[] = [];
  for (let i = 0; i < (opts.count ?? 1); i += 1) {
    const serial = hex(6);
    const tangramId = composeTangramId({
      prefix: TANGRAM_PREFIX,
      tangram_model_number: tp.modelNumber,
      vendor_class: '01',
      vendor_id: tenantId,
      product_model_number: product.modelNumber,
      serial_number: serial,
    });
    const secret = randomSecret();
    const [d] = await db
      .insert(devices)
      .values({ tenantId, projectId: project.id, tangramId, serialNumber: serial, name: `dev ${serial}`, secretHash: sha256(secret) })
      .returning();
    built.push({ id: d.id, tangramId, secret });
  }
  return { tenantId, productId: product.id, projectId: project.id, devices: built };
}

/** Authorises user `accountId` for `deviceId` (what the device-authorisation screens will write). */
export async function authorise(db: Db, deviceId: number, accountId: number): Promise<void> {
  await db.insert(deviceAuthz).values({ deviceId, accountId });
}
