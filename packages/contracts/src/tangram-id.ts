/**
 * Tangram ID: the identity of a device (spec §3 "Device"). Six parts of fixed hex width combine, upper-cased,
 * into the full Tangram ID; `tangram_id_hex` is the same digits in any case. Widths are documented in
 * docs/protocol.md. The full ID is the device's MQTT username and its topic segment.
 */
import { z } from 'zod';
import { TANGRAM_ID_LENGTH, TANGRAM_PART_WIDTHS, TANGRAM_PREFIX } from './tangram-id-widths.js';

/** The parts of a Tangram ID, each an upper-case hex string of its width in {@link TANGRAM_PART_WIDTHS}. */
export interface TTangramParts {
  prefix: string;
  tangram_model_number: string;
  vendor_class: string;
  vendor_id: string;
  product_model_number: string;
  serial_number: string;
}
type TPartName = keyof TTangramParts;
const PART_NAMES = Object.keys(TANGRAM_PART_WIDTHS) as TPartName[];

export { TANGRAM_ID_LENGTH, TANGRAM_PART_WIDTHS, TANGRAM_PREFIX };

const HEX = /^[0-9A-Fa-f]+$/;

/** A full Tangram ID: 30 upper-case hex digits. */
export const ZTangramId = z
  .string()
  .length(TANGRAM_ID_LENGTH)
  .regex(/^[0-9A-F]+$/, 'upper-case hex')
  .meta({ examples: ['540001000100010000000000000001'] });

/** A serial number as typed by a vendor: 1–12 hex digits, any case; left-padded with zeros. */
export const ZSerialNumber = z
  .string()
  .trim()
  .min(1)
  .max(TANGRAM_PART_WIDTHS.serial_number)
  .regex(HEX, 'hex digits only')
  .meta({ examples: ['00A1'] });

/**
 * Left-pads `value` (hex digits or a non-negative integer) to the part's width and upper-cases it.
 * @throws RangeError when the value is not hex or is wider than the part.
 */
export function formatTangramPart(part: TPartName, value: string | number): string {
  const width = TANGRAM_PART_WIDTHS[part];
  const hex = typeof value === 'number' ? value.toString(16) : value;
  if (typeof value === 'number' && (!Number.isSafeInteger(value) || value < 0)) {
    throw new RangeError(`${part}: ${value} is not a non-negative integer`);
  }
  if (!HEX.test(hex) || hex.length > width) {
    throw new RangeError(`${part}: "${hex}" is not at most ${width} hex digits`);
  }
  return hex.toUpperCase().padStart(width, '0');
}

/**
 * Composes the full Tangram ID from its parts (spec §3: "combine upper-cased into a full Tangram ID").
 * @throws RangeError when a part is not hex or too wide.
 */
export function composeTangramId(parts: { [K in TPartName]: string | number }): string {
  return PART_NAMES.map((p) => formatTangramPart(p, parts[p])).join('');
}

/**
 * Splits a full Tangram ID (or its hex form, any case) into its parts.
 * @throws RangeError when the input is not 30 hex digits.
 */
export function parseTangramId(id: string): TTangramParts {
  const full = tangramIdFromHex(id);
  const parts = {} as TTangramParts;
  let at = 0;
  for (const p of PART_NAMES) {
    parts[p] = full.slice(at, at + TANGRAM_PART_WIDTHS[p]);
    at += TANGRAM_PART_WIDTHS[p];
  }
  return parts;
}

/**
 * `tangram_id_hex` → full Tangram ID: validates 30 hex digits and upper-cases them.
 * @throws RangeError when the input is not 30 hex digits.
 */
export function tangramIdFromHex(hex: string): string {
  if (hex.length !== TANGRAM_ID_LENGTH || !HEX.test(hex)) {
    throw new RangeError(`a Tangram ID is ${TANGRAM_ID_LENGTH} hex digits`);
  }
  return hex.toUpperCase();
}

/** Full Tangram ID → `tangram_id_hex` (lower-case), the form some firmware stores. */
export function tangramIdToHex(id: string): string {
  return tangramIdFromHex(id).toLowerCase();
}

/** True when `s` is a well-formed full Tangram ID (upper case). */
export function isTangramId(s: string): boolean {
  return ZTangramId.safeParse(s).success;
}
