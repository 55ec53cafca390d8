import { describe, expect, it } from 'vitest';
import { DUPLICATE_SERIAL, serialKey, ZDeviceBulkRegister } from './devices.js';
import { MAX_BULK_DEVICES, NAME_MAX } from './limits.js';

const serials = (n: number) => Array.from({ length: n }, (_, i) => (i + 0x1000).toString(16));

describe('ZDeviceBulkRegister (docs/decisions/devices-bulk.md)', () => {
  it(`takes 1 to ${MAX_BULK_DEVICES} serials, as a list or as devices with names`, () => {
    expect(ZDeviceBulkRegister.safeParse({ serial_numbers: serials(MAX_BULK_DEVICES) }).success).toBe(true);
    expect(ZDeviceBulkRegister.safeParse({ serial_numbers: serials(MAX_BULK_DEVICES + 1) }).success).toBe(false);
    const devices = (n: number) => serials(n).map((serial_number) => ({ serial_number, name: `Pump ${serial_number}` }));
    expect(ZDeviceBulkRegister.safeParse({ devices: devices(MAX_BULK_DEVICES) }).success).toBe(true);
    expect(ZDeviceBulkRegister.safeParse({ devices: devices(MAX_BULK_DEVICES + 1) }).success).toBe(false);
    expect(ZDeviceBulkRegister.safeParse({ devices: [] }).success).toBe(false);
    expect(ZDeviceBulkRegister.safeParse({ serial_numbers: [] }).success).toBe(false);
  });

  it('wants exactly one of devices and serial_numbers', () => {
    expect(ZDeviceBulkRegister.safeParse({}).success).toBe(false);
    expect(ZDeviceBulkRegister.safeParse({ serial_numbers: ['A1'], devices: [{ serial_number: 'A2' }] }).success).toBe(false);
  });

  it(`names: optional, at most ${NAME_MAX} characters`, () => {
    const one = (name: unknown) => ZDeviceBulkRegister.safeParse({ devices: [{ serial_number: 'A1', name }] }).success;
    expect(one(undefined)).toBe(true);
    expect(one('n'.repeat(NAME_MAX))).toBe(true);
    expect(one('n'.repeat(NAME_MAX + 1))).toBe(false);
    expect(one('')).toBe(false);
  });

  it('reports every bad line at its own index: bad hex, over 12 digits, and repeats (any case, any padding)', () => {
    const res = ZDeviceBulkRegister.safeParse({
      devices: [{ serial_number: 'a1' }, { serial_number: 'XYZ' }, { serial_number: '1234567890ABC' }, { serial_number: '00A1' }],
    });
    expect(res.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['devices.1.serial_number', 'hex digits only'],
      ['devices.2.serial_number', expect.any(String)],
      ['devices.3.serial_number', DUPLICATE_SERIAL],
    ]);
    const list = ZDeviceBulkRegister.safeParse({ serial_numbers: ['7', '07', 'ABCDEF123456'] });
    expect(list.error?.issues).toMatchObject([{ path: ['serial_numbers', 1], message: DUPLICATE_SERIAL }]);
  });

  it('serialKey pads, trims and upper-cases', () => {
    expect(serialKey(' a1 ')).toBe('0000000000A1');
    expect(serialKey('abcdefabcdef')).toBe('ABCDEFABCDEF');
  });
});
