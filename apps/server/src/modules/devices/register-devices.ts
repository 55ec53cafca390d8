/**
 * Device registration (spec §3 "Device"): composes the full Tangram ID from prefix, the project's
 * hardware-module model number, the tenant's vendor class and id, the product's model number and the serial number,
 * issues a 256-bit MQTT secret (shown once, stored as SHA-256) and writes all devices in one transaction.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { ALREADY_REGISTERED, composeTangramId, formatTangramPart, TANGRAM_PREFIX, type TDeviceRegistered } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { randomSecret, sha256 } from '../../core/crypto.js';
import { AppError, conflict, notFound } from '../../core/errors.js';
import { devices, products, projects, tangramProducts, tenants } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/sql-helpers.js';
import { presentDevice } from './presenters.js';

/** One device to register: its serial number (1–12 hex digits, any case) and an optional name. */
export interface TRegistration {
  serialNumber: string;
  name?: string;
}

/** Where entry `i` came from in the request, for the 409 details (e.g. `body/devices/3/serial_number`). */
export type TEntryPath = (index: number) => string;

/**
 * Registers `entries` in project `projectId` of `tenantId`, all or nothing. A device without a name is named by its
 * padded serial number. Answers the devices in request order, each with its secret.
 * @throws AppError 404 when the project is not the tenant's; 409 CONFLICT when a Tangram ID already exists
 *   (nothing is written then), its `details` naming every such entry (`pathOf(i)`, "already registered").
 */
export async function registerDevices(
  db: Db,
  tenantId: number,
  projectId: number,
  entries: TRegistration[],
  pathOf: TEntryPath = (i) => `body/devices/${i}/serial_number`,
): Promise<TDeviceRegistered[]> {
  try {
    return await db.transaction(async (tx) => {
      const [p] = await tx
        .select({ project: projects, product: products, moduleModel: tangramProducts.modelNumber, vendorClass: tenants.vendorClass })
        .from(projects)
        .innerJoin(products, eq(products.id, projects.productId))
        .innerJoin(tangramProducts, eq(tangramProducts.id, projects.tangramProductId))
        .innerJoin(tenants, eq(tenants.id, projects.tenantId))
        .where(and(eq(projects.id, projectId), eq(projects.tenantId, tenantId)));
      if (!p) throw notFound('project');
      const prepared = entries.map((e) => {
        const serialNumber = formatTangramPart('serial_number', e.serialNumber);
        const tangramId = composeTangramId({
          prefix: TANGRAM_PREFIX,
          tangram_model_number: p.moduleModel,
          vendor_class: p.vendorClass,
          vendor_id: tenantId,
          product_model_number: p.product.modelNumber,
          serial_number: serialNumber,
        });
        return { tangramId, serialNumber, name: e.name ?? serialNumber, secret: randomSecret() };
      });
      const taken = await tx
        .select({ tangramId: devices.tangramId })
        .from(devices)
        .where(
          inArray(
            devices.tangramId,
            prepared.map((d) => d.tangramId),
          ),
        );
      if (taken.length) {
        const takenIds = new Set(taken.map((t) => t.tangramId));
        const lines = prepared.flatMap((d, i) => (takenIds.has(d.tangramId) ? [{ path: pathOf(i), message: ALREADY_REGISTERED }] : []));
        throw alreadyRegistered([...takenIds], lines);
      }
      const rows = await tx
        .insert(devices)
        .values(
          prepared.map((d) => ({
            tenantId,
            projectId,
            tangramId: d.tangramId,
            serialNumber: d.serialNumber,
            name: d.name,
            secretHash: sha256(d.secret),
          })),
        )
        .returning();
      const byId = new Map(rows.map((r) => [r.tangramId, r]));
      return prepared.map((d) => ({
        ...presentDevice({
          device: byId.get(d.tangramId)!,
          projectName: p.project.name,
          productId: p.product.id,
          productName: p.product.name,
        }),
        device_secret: d.secret,
      }));
    });
  } catch (err) {
    // A concurrent registration of the same serial passes the check above and trips the unique index instead.
    throw isUniqueViolation(err) ? alreadyRegistered([]) : err;
  }
}

function alreadyRegistered(ids: string[], details?: { path: string; message: string }[]) {
  const which = ids.length ? `: ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ` and ${ids.length - 5} more` : ''}` : '';
  const err = conflict(`device already registered${which}`);
  return details ? new AppError(err.statusCode, err.code, err.message, details) : err;
}
