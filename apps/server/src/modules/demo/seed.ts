/**
 * The demo: on a database without accounts it loads demo data and, in the background, a week of history; on every
 * start with DEMO on it gives the demo devices fresh secrets and streams telemetry for them with the in-process
 * simulator (@tessera/device-sim) over the real broker.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { startSimulator, type TSimDevice, type TSimulator } from '@tessera/device-sim';
import type { TAppContext } from '../../core/context.js';
import { randomSecret, sha256 } from '../../core/crypto.js';
import type { Db } from '../../db/client.js';
import { accounts, devices, projectSensors } from '../../db/schema.js';
import * as demo from './demo-data.js';
import { backfillDemoHistory } from './history.js';
import { seedDemoIfEmpty } from './seed-demo.js';

/** The demo as loaded before the server listens: whether it was new, and its devices with their fresh secrets. */
export interface TLoadedDemo {
  seeded: boolean;
  devices: TDemoDevice[];
}

/**
 * Loads the demo if the database is empty and gives the demo devices fresh secrets; logs the demo logins. Run before
 * the server listens, so that the demo accounts exist once it answers (a login right after /healthz says ok).
 * @returns null when the database has accounts and no demo vendor (the demo is not loaded).
 */
export async function loadDemo(ctx: TAppContext): Promise<TLoadedDemo | null> {
  const seeded = await seedDemoIfEmpty(ctx.db, ctx.ruleChanges);
  const simDevices = await rotateDemoSecrets(ctx.db);
  if (!simDevices) {
    ctx.log.info('demo not loaded: the database already has accounts and no demo vendor');
    return null;
  }
  printLogins(ctx, seeded);
  return { seeded, devices: simDevices };
}

/**
 * Starts the simulator of a loaded demo on `brokerUrl` and, for a new demo, writes its week of history in the
 * background. A simulator that cannot start is logged, not fatal: the console still works. `onHistoryWritten` is
 * called once a new demo's week of history has been written (the server then compresses its cold days).
 * @returns a function that stops the simulator and the history.
 */
export async function startDemo(
  ctx: TAppContext,
  loaded: TLoadedDemo,
  brokerUrl: string,
  opts: { onHistoryWritten?: () => void } = {},
): Promise<() => Promise<void>> {
  const simDevices = loaded.devices;
  const historyEndMs = Date.now() - 60_000;
  let sim: TSimulator | undefined;
  try {
    sim = await startSimulator({ url: brokerUrl, devices: simDevices, rateHz: 1 });
    ctx.log.info({ devices: simDevices.length, brokerUrl }, 'demo simulator streaming');
  } catch (err) {
    ctx.log.warn({ err }, 'demo simulator could not start');
  }
  // A new demo gets its week of history in the background, once the simulator runs (on PGlite every query waits its
  // turn): the server is ready and the console serves while it is written, batch by batch.
  const history = new AbortController();
  const backfilled = loaded.seeded
    ? backfillInBackground(ctx, simDevices, historyEndMs, history.signal).then(() => opts.onHistoryWritten?.())
    : Promise.resolve();
  return async () => {
    history.abort();
    await Promise.all([sim?.stop(), backfilled]);
  };
}

async function backfillInBackground(ctx: TAppContext, simDevices: TDemoDevice[], endMs: number, signal: AbortSignal): Promise<void> {
  const startedAt = Date.now();
  try {
    const points = await backfillDemoHistory(ctx.db, simDevices, endMs, signal);
    ctx.log.info({ points, ms: Date.now() - startedAt, aborted: signal.aborted }, 'demo history written');
  } catch (err) {
    ctx.log.warn({ err }, 'demo history could not be written');
  }
}

/** A demo device: the simulator's credentials and keys, and its id. */
export type TDemoDevice = TSimDevice & { id: number; keys: string[] };

/**
 * Gives each demo device (by its seeded serial number, in the demo vendor's tenant) a new secret and answers the
 * simulator's credentials, with the telemetry keys of the device's project. Null when there is no demo vendor.
 * Devices the vendor registered themselves are never touched.
 */
export async function rotateDemoSecrets(db: Db): Promise<TDemoDevice[] | null> {
  const [vendor] = await db.select({ tenantId: accounts.tenantId }).from(accounts).where(eq(accounts.email, demo.DEMO_VENDOR_EMAIL));
  if (!vendor) return null;
  const rows = await db
    .select({ id: devices.id, tangramId: devices.tangramId, projectId: devices.projectId, serialNumber: devices.serialNumber })
    .from(devices)
    .where(
      and(
        eq(devices.tenantId, vendor.tenantId),
        inArray(
          devices.serialNumber,
          demo.DEMO_DEVICES.map((d) => d.serial),
        ),
      ),
    )
    .orderBy(devices.serialNumber);
  const sensors = rows.length
    ? await db
        .select({ projectId: projectSensors.projectId, key: projectSensors.key })
        .from(projectSensors)
        .where(
          and(
            inArray(
              projectSensors.projectId,
              rows.map((r) => r.projectId),
            ),
            eq(projectSensors.enabled, true),
          ),
        )
    : [];
  const out: TDemoDevice[] = [];
  for (const r of rows) {
    const secret = randomSecret();
    await db
      .update(devices)
      .set({ secretHash: sha256(secret) })
      .where(eq(devices.id, r.id));
    const keys = sensors.filter((s) => s.projectId === r.projectId).map((s) => s.key);
    // The compressor's motor (the first demo device) drifts into ISO 10816-3 zone C now and then (motor-health.md).
    const vibrationProfile = r.serialNumber === demo.DEMO_DEVICES[0].serial ? 'drifting' : 'steady';
    out.push({ id: r.id, tangramId: r.tangramId, secret, keys, vibrationProfile });
  }
  return out;
}

function printLogins(ctx: TAppContext, seeded: boolean): void {
  const logins = demo.DEMO_ACCOUNTS.map((a) => ({ email: a.email, level: a.level }));
  ctx.log.info({ logins, password: demo.DEMO_PASSWORD, seeded }, 'demo logins');
  const lines = [
    `Tessera demo ${seeded ? 'loaded' : 'running'}; log in with password ${demo.DEMO_PASSWORD}:`,
    ...logins.map((l) => `  ${l.level.padEnd(6)} ${l.email}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
