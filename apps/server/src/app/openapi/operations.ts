/**
 * The catalogue of operation docs (summary, extra error statuses) for every route of spec §7, gathered from its three
 * parts. A route may instead carry `schema.summary` itself; the document test checks every operation has one.
 */
import { AUTH_AND_FRONTSTAGE_OPERATIONS } from './operations-auth-frontstage.js';
import { RULES_AND_AI_OPERATIONS } from './operations-rules-ai.js';
import { USER_AND_DATA_OPERATIONS } from './operations-user-data.js';
import type { TOperationDoc } from './operation-doc.js';

/** Every catalogued operation, keyed `"METHOD /path"` (OpenAPI path templates). */
export const OPERATION_DOCS: Readonly<Record<string, TOperationDoc>> = {
  ...AUTH_AND_FRONTSTAGE_OPERATIONS,
  ...USER_AND_DATA_OPERATIONS,
  ...RULES_AND_AI_OPERATIONS,
};

/** The catalogue's doc of `"METHOD /path"`, if it has one. */
export function operationDoc(key: string): TOperationDoc | undefined {
  return OPERATION_DOCS[key];
}
