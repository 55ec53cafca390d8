/**
 * The shape of one operation's documentation in the OpenAPI document (spec §7 calls, §8 errors): a one-line summary
 * and the error statuses it answers beyond those every operation of its kind answers (document.ts derives those).
 */

/** Error codes (spec §8 and `ErrorCode` of @tessera/contracts) an operation may answer, by HTTP status. */
export type TErrorCodesByStatus = Partial<Record<number, readonly string[]>>;

/** What the catalogue says of one operation; keyed `"METHOD /path"` with OpenAPI path templates (`{id}`). */
export interface TOperationDoc {
  /** One line: what the operation does, for whom when it matters. */
  summary: string;
  /** Longer text, when the summary is not enough. */
  description?: string;
  /** Statuses this operation answers besides the derived ones (document.ts), with their codes. */
  errors?: TErrorCodesByStatus;
}
