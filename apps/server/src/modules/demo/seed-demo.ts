/**
 * Loads the demo on a database without accounts: tenants, the three logins, a product class and
 * product, a project on the motor & environment module with status groups and a simple rule, five devices, the
 * user's authorisation for two of them, and an air-compressor machine over the first two devices (the user holds it). One transaction: a failure leaves the database empty, so the next start retries.
 * Then the vendor's and the user's first dashboard page, through the dashboard service (its checks apply).
 */
import { count, eq } from 'drizzle-orm';
import { DEFAULT_FEATURES, ZFlowGraph } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { hashPassword } from '../../core/crypto.js';
import {
  accounts,
  authzRequests,
  deviceAuthz,
  machineAuthz,
  platformRules,
  productClasses,
  tangramProducts,
  tenants,
} from '../../db/schema.js';
import { registerDevices } from '../devices/register-devices.js';
import { MOTOR_ENV_MODEL_NUMBER } from '../products/catalogue-data.js';
import { createProduct } from '../products/product-service.js';
import { createSimpleRule } from '../project-rules/simple-rules.js';
import { createProject, updateProject } from '../projects/project-service.js';
import * as demo from './demo-data.js';
import type { TRuleChanges } from '../../core/context.js';
import type { TPrincipal } from '../../core/principal.js';
import { createPage, saveWidgets } from '../dashboard/dashboard-service.js';
import { createMachineConfigure } from '../machines/save-configure.js';
import { createMachineInstance } from '../machines/save-instance.js';

/**
 * Seeds the demo when the database has no accounts. Needs the catalogue (ensureCatalogue) to exist.
 * @returns true when it seeded, false when accounts already existed.
 */
export async function seedDemoIfEmpty(db: Db, ruleChanges: TRuleChanges): Promise<boolean> {
  const [{ n }] = await db.select({ n: count() }).from(accounts);
  if (n > 0) return false;
  const passwordHash = await hashPassword(demo.DEMO_PASSWORD);
  const seeded = await db.transaction(async (tx) => {
    const [platform] = await tx.insert(tenants).values({ name: demo.PLATFORM_TENANT_NAME }).returning();
    const [tenant] = await tx.insert(tenants).values({ name: demo.DEMO_TENANT_NAME }).returning();
    const made = await tx
      .insert(accounts)
      .values(
        demo.DEMO_ACCOUNTS.map((a) => ({
          tenantId: a.level === 'admin' ? platform.id : tenant.id,
          email: a.email,
          name: a.name,
          passwordHash,
          level: a.level,
          features: [...DEFAULT_FEATURES[a.level]],
          mustSetPassword: false,
        })),
      )
      .returning();
    const [cls] = await tx.insert(productClasses).values({ tenantId: tenant.id, name: demo.DEMO_CLASS_NAME }).returning();
    const product = await createProduct(tx, tenant.id, { ...demo.DEMO_PRODUCT, class_id: cls.id });
    const [module] = await tx.select().from(tangramProducts).where(eq(tangramProducts.modelNumber, MOTOR_ENV_MODEL_NUMBER));
    const project = await createProject(tx, tenant.id, {
      ...demo.DEMO_PROJECT,
      product_id: product.id,
      tangram_product_id: module.id,
      device_authz_method: 'all',
    });
    await updateProject(tx, tenant.id, project.id, { status_groups: demo.DEMO_STATUS_GROUPS });
    await createSimpleRule(tx, ruleChanges, tenant.id, project.id, demo.DEMO_RULE);
    const devices = await registerDevices(
      tx,
      tenant.id,
      project.id,
      demo.DEMO_DEVICES.map((d) => ({ serialNumber: d.serial, name: d.name })),
    );
    const user = made.find((a) => a.email === demo.DEMO_USER_EMAIL)!;
    const vendor = made.find((a) => a.level === 'vendor')!;
    const granted = devices.slice(0, demo.DEMO_USER_DEVICE_COUNT);
    await tx.insert(deviceAuthz).values(granted.map((d) => ({ deviceId: d.id, accountId: user.id })));
    // The user's devices came through requests the vendor allowed: the authorisation history shows them, and the
    // vendor can revoke them from the authorisation page.
    const decidedAt = Date.now();
    await tx.insert(authzRequests).values(
      granted.map((d) => ({
        tenantId: tenant.id,
        accountId: user.id,
        target: 'device' as const,
        deviceId: d.id,
        projectId: project.id,
        method: 'all' as const,
        status: 'allowed' as const,
        message: demo.DEMO_REQUEST_MESSAGE,
        decidedBy: vendor.id,
        decidedAt,
      })),
    );
    const configure = await createMachineConfigure(tx, tenant.id, {
      ...demo.DEMO_MACHINE_CONFIGURE,
      image_url: null,
      components: demo.DEMO_MACHINE_CONFIGURE.components.map((c) => ({ ...c, keys: [...c.keys], product_id: product.id })),
    });
    const vendorPrincipal: TPrincipal = { ...vendor, accountId: vendor.id, fea: vendor.features, via: 'jwt' };
    const machine = await createMachineInstance(tx, vendorPrincipal, {
      ...demo.DEMO_MACHINE,
      configure_id: configure.id,
      bindings: configure.components.map((c, i) => ({ component_id: c.id, device_id: devices[i].id })),
    });
    // The user holds the compressor too, through an allowed machine request: its equipment page lists it.
    await tx.insert(machineAuthz).values({ machineId: machine.id, accountId: user.id });
    await tx.insert(authzRequests).values({
      tenantId: tenant.id,
      accountId: user.id,
      target: 'machine',
      machineId: machine.id,
      projectId: null,
      method: 'all',
      status: 'allowed',
      message: demo.DEMO_REQUEST_MESSAGE,
      decidedBy: vendor.id,
      decidedAt,
    });
    for (const rule of demo.demoPlatformRules(project.id)) {
      const graph = ZFlowGraph.parse(rule.graph);
      const start = graph.nodes.find((n) => n.type === 'start');
      await tx.insert(platformRules).values({
        tenantId: tenant.id,
        name: rule.name,
        description: rule.description,
        status: 'running',
        draft: graph,
        applied: graph,
        version: 1,
        triggerKind: start?.type === 'start' ? start.data.trigger.kind : null,
      });
    }
    return { accounts: made, tangramIds: devices.map((d) => d.tangram_id) };
  });
  for (const account of seeded.accounts.filter((a) => a.level !== 'admin')) {
    const principal: TPrincipal = { ...account, accountId: account.id, fea: account.features, via: 'jwt' };
    const visible = account.level === 'user' ? seeded.tangramIds.slice(0, demo.DEMO_USER_DEVICE_COUNT) : seeded.tangramIds;
    const page = await createPage(db, principal, demo.DEMO_DASHBOARD_NAME);
    await saveWidgets(db, principal, page.id, { widgetList: demo.demoDashboardWidgets(visible) });
  }
  return true;
}
