/** The rules tab of a project (spec §2 `project/detail/{id}/rule`): rule type, simple rules, Blockly programs. */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** The tab's route object, relative to `project/detail/:id`. */
export const projectRulesTabRoute: RouteObject = { path: 'rule', lazy: lazyPage(() => import('./RuleTab')) };
