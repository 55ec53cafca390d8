/**
 * AI model routes of the console (feature code 13:1, docs/decisions/ai.md): `ai-model` redirects to the list; a
 * model's page holds its revisions and deployments; a deployment (rollout) has its own page under its model's.
 */
import { Navigate, type RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** Route objects of the registry; relative paths, placed under the shell's authenticated layout. */
export const aiModelRoutes: RouteObject[] = [
  { path: 'ai-model', element: <Navigate to="/ai-model/list" replace /> },
  { path: 'ai-model/list', lazy: lazyPage(() => import('./pages/AiModelListPage')) },
  { path: 'ai-model/detail/:id', lazy: lazyPage(() => import('./pages/AiModelDetailPage')) },
  { path: 'ai-model/detail/:id/rollouts/:rolloutId', lazy: lazyPage(() => import('./pages/RolloutPage')) },
];
