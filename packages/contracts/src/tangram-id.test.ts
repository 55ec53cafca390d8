import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  composeTangramId,
  formatTangramPart,
  isTangramId,
  parseTangramId,
  TANGRAM_ID_LENGTH,
  TANGRAM_PART_WIDTHS,
  tangramIdFromHex,
  tangramIdToHex,
  type TTangramParts,
} from './tangram-id.js';

const hexOf = (width: number) => fc.stringMatching(new RegExp(`^[0-9a-fA-F]{1,${width}}$`));
const arbParts: fc.Arbitrary<TTangramParts> = fc.record({
  prefix: hexOf(TANGRAM_PART_WIDTHS.prefix),
  tangram_model_number: hexOf(TANGRAM_PART_WIDTHS.tangram_model_number),
  vendor_class: hexOf(TANGRAM_PART_WIDTHS.vendor_class),
  vendor_id: hexOf(TANGRAM_PART_WIDTHS.vendor_id),
  product_model_number: hexOf(TANGRAM_PART_WIDTHS.product_model_number),
  serial_number: hexOf(TANGRAM_PART_WIDTHS.serial_number),
});

describe('Tangram ID', () => {
  it('composes 30 upper-case hex digits from parts of fixed width', () => {
    const id = composeTangramId({
      prefix: '54',
      tangram_model_number: 'a1',
      vendor_class: 1,
      vendor_id: 42,
      product_model_number: '0001',
      serial_number: 'beef',
    });
    expect(id).toBe('5400A10100002A000100000000BEEF');
    expect(id).toHaveLength(TANGRAM_ID_LENGTH);
    expect(isTangramId(id)).toBe(true);
  });

  it('round-trips parts → full ID → parts (left-padded, upper-cased)', () => {
    fc.assert(
      fc.property(arbParts, (parts) => {
        const parsed = parseTangramId(composeTangramId(parts));
        for (const [name, width] of Object.entries(TANGRAM_PART_WIDTHS)) {
          expect(parsed[name as keyof TTangramParts]).toBe(parts[name as keyof TTangramParts].toUpperCase().padStart(width, '0'));
        }
      }),
    );
  });

  it('round-trips full ID ↔ hex form', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-fA-F]{30}$/), (hex) => {
        const full = tangramIdFromHex(hex);
        expect(isTangramId(full)).toBe(true);
        expect(tangramIdToHex(full)).toBe(hex.toLowerCase());
        expect(tangramIdFromHex(tangramIdToHex(full))).toBe(full);
      }),
    );
  });

  it('refuses a part that is too wide or not hex, and an ID of the wrong length', () => {
    expect(() => formatTangramPart('serial_number', '1'.repeat(13))).toThrow(RangeError);
    expect(() => formatTangramPart('prefix', 'zz')).toThrow(RangeError);
    expect(() => formatTangramPart('vendor_id', -1)).toThrow(RangeError);
    expect(() => tangramIdFromHex('ABC')).toThrow(RangeError);
    expect(() => tangramIdFromHex('G'.repeat(30))).toThrow(RangeError);
    expect(formatTangramPart('serial_number', 'f'.repeat(12))).toBe('F'.repeat(12));
  });
});
