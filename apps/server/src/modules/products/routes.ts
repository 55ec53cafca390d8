/**
 * `/frontstage/v1/products…` and `/frontstage/v1/template/tangramProducts…` (spec §7). Products and classes are
 * vendor only (§6); the hardware-module catalogue is readable by any logged-in account.
 */
import { z } from 'zod';
import {
  ZProjectProductProfile,
  ZIdParam,
  ZListQuery,
  ZProduct,
  ZProductCatalog,
  ZProductClass,
  ZProductClassInput,
  ZProductClassList,
  ZProductCreate,
  ZProductFunctions,
  ZProductFunctionsView,
  ZProductList,
  ZProductUpdate,
  ZSum,
  ZTangramProductList,
  ZTangramProductQuery,
  ZTemplateSensorList,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireAuth, requireVendor } from '../../core/principal.js';
import { getProductFunctions, setProductFunctions } from './functions-service.js';
import { projectProductProfile } from './project-product-profile.js';
import { createProductClass, deleteProductClass, listProductClasses, updateProductClass } from './class-service.js';
import { countProducts, createProduct, deleteProduct, listProducts, productCatalog, updateProduct } from './product-service.js';
import { listTangramProducts, listTemplateSensors } from './template-service.js';

const tags = ['products'];
const vendor = { preHandler: requireVendor };
const noContent = { 204: z.null().describe('no content') };

/** Registers the product, product-class and template routes (prefix `/frontstage/v1`). */
export async function productRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db } = ctx;

  app.get('/products', { ...vendor, schema: { tags, querystring: ZListQuery, response: { 200: ZProductList } } }, (req) =>
    listProducts(db, principalOf(req).tenantId, req.query),
  );
  app.post('/products', { ...vendor, schema: { tags, body: ZProductCreate, response: { 201: ZProduct } } }, async (req, reply) =>
    reply.status(201).send(await createProduct(db, principalOf(req).tenantId, req.body)),
  );
  app.get('/products/sum', { ...vendor, schema: { tags, response: { 200: ZSum } } }, async (req) => ({
    total: await countProducts(db, principalOf(req).tenantId),
  }));
  app.get('/products/catalog', { ...vendor, schema: { tags, response: { 200: ZProductCatalog } } }, (req) =>
    productCatalog(db, principalOf(req).tenantId),
  );
  app.put('/products/:id', { ...vendor, schema: { tags, params: ZIdParam, body: ZProductUpdate, response: { 200: ZProduct } } }, (req) =>
    updateProduct(db, principalOf(req).tenantId, req.params.id, req.body),
  );
  app.delete('/products/:id', { ...vendor, schema: { tags, params: ZIdParam, response: noContent } }, async (req, reply) => {
    await deleteProduct(db, principalOf(req).tenantId, req.params.id);
    return reply.status(204).send(null);
  });

  app.get('/products/classes', { ...vendor, schema: { tags, response: { 200: ZProductClassList } } }, (req) =>
    listProductClasses(db, principalOf(req).tenantId),
  );
  app.post(
    '/products/classes',
    { ...vendor, schema: { tags, body: ZProductClassInput, response: { 201: ZProductClass } } },
    async (req, reply) => reply.status(201).send(await createProductClass(db, principalOf(req).tenantId, req.body)),
  );
  app.put(
    '/products/classes/:id',
    { ...vendor, schema: { tags, params: ZIdParam, body: ZProductClassInput, response: { 200: ZProductClass } } },
    (req) => updateProductClass(db, principalOf(req).tenantId, req.params.id, req.body),
  );
  app.delete('/products/classes/:id', { ...vendor, schema: { tags, params: ZIdParam, response: noContent } }, async (req, reply) => {
    await deleteProductClass(db, principalOf(req).tenantId, req.params.id);
    return reply.status(204).send(null);
  });

  app.get(
    '/projects/profile/product/:id',
    { ...vendor, schema: { tags, params: ZIdParam, response: { 200: ZProjectProductProfile } } },
    (req) => projectProductProfile(db, principalOf(req).tenantId, req.params.id),
  );
  app.get(
    '/projects/profile/product/functions/:id',
    { ...vendor, schema: { tags, params: ZIdParam, response: { 200: ZProductFunctionsView } } },
    (req) => getProductFunctions(db, principalOf(req).tenantId, req.params.id),
  );
  app.put(
    '/projects/profile/product/functions/:id',
    { ...vendor, schema: { tags, params: ZIdParam, body: ZProductFunctions, response: { 200: ZProductFunctionsView } } },
    (req) => setProductFunctions(db, principalOf(req).tenantId, req.params.id, req.body),
  );

  const auth = { preHandler: requireAuth };
  app.get(
    '/template/tangramProducts',
    { ...auth, schema: { tags, querystring: ZTangramProductQuery, response: { 200: ZTangramProductList } } },
    (req) => listTangramProducts(db, req.query),
  );
  app.get(
    '/template/tangramProducts/:id/sensors',
    { ...auth, schema: { tags, params: ZIdParam, response: { 200: ZTemplateSensorList } } },
    (req) => listTemplateSensors(db, req.params.id),
  );
}
