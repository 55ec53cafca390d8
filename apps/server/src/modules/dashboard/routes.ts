/**
 * `/dashboard/v1` (spec §7 "Dashboard: page and widget CRUD. New widgets are added, existing updated"): the caller's
 * dashboard pages and widgets. Accounts granted the dashboard section (feature code 1).
 */
import {
  ZDashboardPage,
  ZDashboardPageInput,
  ZDashboardPageList,
  ZDashboardPageOrder,
  ZDashboardState,
  ZIdParam,
  ZWidgetListInput,
} from '@tessera/contracts';
import { z } from 'zod';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireSection } from '../../core/principal.js';
import { createPage, deletePage, deleteWidget, getWidgets, listPages, orderPages, renamePage, saveWidgets } from './dashboard-service.js';

const tags = ['dashboard'];
const granted = { preHandler: requireSection('dashboard') };
const noContent = { 204: z.null().describe('no content') };

/** Registers the dashboard routes (prefix `/dashboard/v1`). */
export async function dashboardRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db } = ctx;
  app.get('/pages', { ...granted, schema: { tags, response: { 200: ZDashboardPageList } } }, (req) => listPages(db, principalOf(req)));
  app.post('/pages', { ...granted, schema: { tags, body: ZDashboardPageInput, response: { 201: ZDashboardPage } } }, async (req, reply) =>
    reply.status(201).send(await createPage(db, principalOf(req), req.body.name)),
  );
  app.put('/pages/order', { ...granted, schema: { tags, body: ZDashboardPageOrder, response: { 200: ZDashboardPageList } } }, (req) =>
    orderPages(db, principalOf(req), req.body.ids),
  );
  app.put(
    '/pages/:id',
    { ...granted, schema: { tags, params: ZIdParam, body: ZDashboardPageInput, response: { 200: ZDashboardPage } } },
    (req) => renamePage(db, principalOf(req), req.params.id, req.body.name),
  );
  app.delete('/pages/:id', { ...granted, schema: { tags, params: ZIdParam, response: noContent } }, async (req, reply) => {
    await deletePage(db, principalOf(req), req.params.id);
    return reply.status(204).send(null);
  });
  app.get('/pages/:id/widgets', { ...granted, schema: { tags, params: ZIdParam, response: { 200: ZDashboardState } } }, (req) =>
    getWidgets(db, principalOf(req), req.params.id),
  );
  app.put(
    '/pages/:id/widgets',
    { ...granted, schema: { tags, params: ZIdParam, body: ZWidgetListInput, response: { 200: ZDashboardState } } },
    (req) => saveWidgets(db, principalOf(req), req.params.id, req.body),
  );
  app.delete('/widgets/:id', { ...granted, schema: { tags, params: ZIdParam, response: noContent } }, async (req, reply) => {
    await deleteWidget(db, principalOf(req), req.params.id);
    return reply.status(204).send(null);
  });
}
