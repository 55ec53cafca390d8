/**
 * Machine routes of the console (docs/decisions/machines.md; menu section 9 `machine`): `machine` → `machine/configure`
 * (the vendor's machine configures; the guard sends users on to `machine/equipment`), `machine/equipment` (machine
 * instances), `machine/equipment/{id}` (the machine page) and `machine/roles` (machine roles, the roles feature's page).
 * Every page is a lazy chunk.
 */
import { Navigate, type RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';
import { machineRolesRoute } from '../project-roles/routes';

/** Route objects of the machine pages; relative paths, placed under the shell's authenticated layout. */
export const machineRoutes: RouteObject[] = [
  {
    path: 'machine',
    lazy: lazyPage(() => import('./MachinesLayout')),
    children: [
      { index: true, element: <Navigate to="/machine/configure" replace /> },
      { path: 'configure', lazy: lazyPage(() => import('./pages/ConfigureListPage')) },
      { path: 'equipment', lazy: lazyPage(() => import('./pages/EquipmentListPage')) },
      { path: 'equipment/:id', lazy: lazyPage(() => import('./pages/MachinePage')) },
      machineRolesRoute,
    ],
  },
];
