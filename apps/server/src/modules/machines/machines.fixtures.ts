/**
 * Fixtures of the machine tests: a server with a vendor, a user of its tenant and a vendor of another tenant; the
 * vendor's product with registered devices, a second product with one device, the other tenant's device; and
 * shortcuts to create configures and machines through the API.
 */
import {
  machinePaths,
  type TDeviceRegistered,
  type TMachineConfigure,
  type TMachineConfigureCreateInput,
  type TMachineInstance,
  type TMachineInstanceCreateInput,
} from '@tessera/contracts';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, type TTestServer } from '../../../test/helpers.js';
import { createProjectVia, registerVia } from '../projects/catalogue.fixtures.js';

/** An error body as the tests read it. */
export type TErrorBody = { code: string; message: string; details?: { path: string; message: string }[] };

/** What a machine test works with; see the module comment. */
export interface TMachineWorld {
  server: TTestServer;
  vendor: TBuiltAccount;
  user: TBuiltAccount;
  other: TBuiltAccount;
  productId: number;
  /** Devices of `productId`. */
  devices: TDeviceRegistered[];
  otherProductId: number;
  /** A device of `otherProductId` (same tenant). */
  otherProductDevice: TDeviceRegistered;
  /** A device of the other tenant. */
  foreignDevice: TDeviceRegistered;
  /** POST machine-configure as `token` (default the vendor) with `extra` over a one-component body. */
  createConfigure(
    extra?: Partial<TMachineConfigureCreateInput>,
    token?: string,
  ): Promise<{ status: number; body: TMachineConfigure & TErrorBody }>;
  /** POST machine-instance as the vendor. */
  createInstance(body: TMachineInstanceCreateInput, token?: string): Promise<{ status: number; body: TMachineInstance & TErrorBody }>;
}

let seq = 0;
/** A name no other test of the run uses. */
export const uniqueName = (label: string) => `${label} ${++seq}`;

/** Starts the server and builds the world (`deviceCount` devices of the main product, default 4). Stop `server` after. */
export async function startMachineWorld(deviceCount = 4): Promise<TMachineWorld> {
  const server = await startTestServer();
  const vendor = await buildVendor(server);
  const user = await buildUser(server, vendor.tenantId);
  const other = await buildVendor(server);
  const project = await createProjectVia(server, vendor.token, 'Compressor line');
  const devices: TDeviceRegistered[] = [];
  for (let i = 1; i <= deviceCount; i += 1) devices.push(await registerVia(server, vendor.token, project.id, `A${i}`));
  const otherProject = await createProjectVia(server, vendor.token, 'Other line');
  const otherProductDevice = await registerVia(server, vendor.token, otherProject.id, 'B1');
  const foreignDevice = await registerVia(server, other.token, (await createProjectVia(server, other.token)).id, 'F1');
  const productId = project.product_id;
  return {
    server,
    vendor,
    user,
    other,
    productId,
    devices,
    otherProductId: otherProject.product_id,
    otherProductDevice,
    foreignDevice,
    createConfigure: (extra = {}, token = vendor.token) =>
      server.api('POST', machinePaths.configures, {
        token,
        body: { name: uniqueName('Compressor'), components: [{ name: 'Motor', product_id: productId, keys: ['current'] }], ...extra },
      }),
    createInstance: (body, token = vendor.token) => server.api('POST', machinePaths.instances, { token, body }),
  };
}
