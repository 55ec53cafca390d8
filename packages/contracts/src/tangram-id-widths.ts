/**
 * The widths of a Tangram ID's parts (docs/protocol.md). In a module of their own, without zod: the dashboard's widget
 * parameters (dashboard-mini.ts) check a Tangram ID's length without loading classic zod. tangram-id.ts re-exports them.
 */

/** Width in hex digits of each part, in order. Total 30 hex digits (120 bits). */
export const TANGRAM_PART_WIDTHS = {
  prefix: 2,
  tangram_model_number: 4,
  vendor_class: 2,
  vendor_id: 6,
  product_model_number: 4,
  serial_number: 12,
} as const;

/** Length in hex digits of a full Tangram ID. */
export const TANGRAM_ID_LENGTH = Object.values(TANGRAM_PART_WIDTHS).reduce((a, b) => a + b, 0);
/** The platform's Tangram ID prefix. */
export const TANGRAM_PREFIX = '54';
