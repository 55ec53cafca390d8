/**
 * Machines (spec §1 "machines (multi-component assemblies)", §3 "machine configure and instance", §6 machine roles;
 * docs/decisions/machines.md): a vendor's machine configure names the components of a kind of machine, each bound to
 * a product and the telemetry keys that matter; a machine instance is one real machine with one device bound to each
 * component. Users get machines through authorisation requests (`machine_authz`) and machine roles
 * (`project_role_machines`), and with a machine every device bound to it. Part of the one Drizzle schema (schema.ts
 * re-exports every schema file); times are epoch ms in `bigint` columns.
 */
import type { TMachineClass } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { accounts, tenants } from './schema-accounts.js';
import { devices, products } from './schema-catalogue.js';
import { projectRoles } from './schema-project-config.js';

/** A kind of machine a vendor defines: name (unique per tenant ignoring case), description and a picture. */
export const machineConfigures = pgTable(
  'machine_configures',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** An uploaded image's URL (images module), or null. */
    imageUrl: text('image_url'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('machine_configures_tenant_name_uq').on(t.tenantId, sql`lower(${t.name})`)],
);

/**
 * A component of a machine configure: its name (unique within the configure ignoring case), the product whose
 * devices fill it, the telemetry keys shown for it (ordered), and its place in the configure's list.
 */
export const machineComponents = pgTable(
  'machine_components',
  {
    id: serial('id').primaryKey(),
    configureId: integer('configure_id')
      .notNull()
      .references(() => machineConfigures.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    keys: jsonb('keys').$type<string[]>().notNull(),
    position: integer('position').notNull(),
  },
  (t) => [uniqueIndex('machine_components_configure_name_uq').on(t.configureId, sql`lower(${t.name})`)],
);

/**
 * A machine instance: one real machine of a configure (a configure with instances cannot be deleted), its name
 * (unique per tenant ignoring case), serial number, location and ISO 10816-3 class.
 */
export const machines = pgTable(
  'machines',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    configureId: integer('configure_id')
      .notNull()
      .references(() => machineConfigures.id),
    name: text('name').notNull(),
    serialNumber: text('serial_number').notNull().default(''),
    location: text('location').notNull().default(''),
    machineClass: text('machine_class').$type<TMachineClass>().notNull().default('group2_rigid'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('machines_tenant_name_uq').on(t.tenantId, sql`lower(${t.name})`), index('machines_configure_idx').on(t.configureId)],
);

/** The device bound to a component of a machine: at most one per component, and a device serves one machine at most. */
export const machineBindings = pgTable(
  'machine_bindings',
  {
    machineId: integer('machine_id')
      .notNull()
      .references(() => machines.id, { onDelete: 'cascade' }),
    componentId: integer('component_id')
      .notNull()
      .references(() => machineComponents.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.machineId, t.componentId] }), uniqueIndex('machine_bindings_device_uq').on(t.deviceId)],
);

/** A user's grant of a machine (and every device bound to it, now and later), made by an allowed machine request. */
export const machineAuthz = pgTable(
  'machine_authz',
  {
    machineId: integer('machine_id')
      .notNull()
      .references(() => machines.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.machineId, t.accountId] }), index('machine_authz_account_idx').on(t.accountId)],
);

/** The machines of a machine role (`project_roles.kind = 'machine'`); members see every device bound to them. */
export const projectRoleMachines = pgTable(
  'project_role_machines',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => projectRoles.id, { onDelete: 'cascade' }),
    machineId: integer('machine_id')
      .notNull()
      .references(() => machines.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.machineId] }), index('project_role_machines_machine_idx').on(t.machineId)],
);
