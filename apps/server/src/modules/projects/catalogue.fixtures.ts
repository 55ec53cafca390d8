/**
 * Test fixtures of the catalogue modules: a product, a project and devices made through the real API, so tests
 * exercise the same code paths a vendor does. Used by products, projects, devices and demo tests only.
 */
import { paths, type TDeviceRegistered, type TProduct, type TProject, type TTangramProductList } from '@tessera/contracts';
import type { TTestServer } from '../../../test/helpers.js';

let seq = 0;

/** Creates a product as the vendor holding `token`. */
export async function createProductVia(server: TTestServer, token: string, name = `Product ${++seq}`): Promise<TProduct> {
  const res = await server.api<TProduct>('POST', paths.products, { token, body: { name, model: 'M-1', number: 'N-1' } });
  if (res.status !== 201) throw new Error(`product create answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The id of the catalogue module with `modelNumber` (default: the first one). */
export async function moduleId(server: TTestServer, token: string, modelNumber?: string): Promise<number> {
  const res = await server.api<TTangramProductList>('GET', paths.tangramProducts, { token });
  const m = modelNumber ? res.body.data.find((x) => x.model_number === modelNumber) : res.body.data[0];
  if (!m) throw new Error(`no module ${modelNumber}`);
  return m.id;
}

/** Creates a product and a project on it as the vendor holding `token`. */
export async function createProjectVia(server: TTestServer, token: string, name = `Project ${++seq}`): Promise<TProject> {
  const product = await createProductVia(server, token);
  const body = { name, product_id: product.id, tangram_product_id: await moduleId(server, token) };
  const res = await server.api<TProject>('POST', paths.projects, { token, body });
  if (res.status !== 201) throw new Error(`project create answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Registers a device with `serial` in `projectId`. */
export async function registerVia(server: TTestServer, token: string, projectId: number, serial: string): Promise<TDeviceRegistered> {
  const res = await server.api<TDeviceRegistered>('POST', paths.projectDevices(projectId), { token, body: { serial_number: serial } });
  if (res.status !== 201) throw new Error(`register answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
