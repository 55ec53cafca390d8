import { describe, expect, it } from 'vitest';
import { EASY_IMPORT_MAX_LINES, MAX_STATUS_LINES } from './limits.js';
import {
  parseStatusImport,
  TELEMETRY_VALUE_SLOTS,
  telemetrySlotsUsed,
  ZSensorBus,
  ZSensorDisplayInput,
  ZSensorInput,
  ZSensorUpdate,
} from './sensors.js';

const base = { key: 'temp', name: 'Temperature' };
const ok = (extra: Record<string, unknown>) => ZSensorInput.safeParse({ ...base, ...extra }).success;

describe('ZSensorInput (§5 sensor rules)', () => {
  it('accepts address 0 and 255, refuses -1 and 256', () => {
    expect([0, 255].map((address) => ok({ address }))).toEqual([true, true]);
    expect([-1, 256, 1.5].map((address) => ok({ address }))).toEqual([false, false, false]);
  });

  it('periods: 0 disables, 1000 is the floor, 999 and 1 are refused', () => {
    for (const field of ['save_period', 'update_period', 'upload_period']) {
      expect([0, 1000, 60_000].map((v) => ok({ [field]: v }))).toEqual([true, true, true]);
      expect([1, 999, -1000].map((v) => ok({ [field]: v }))).toEqual([false, false, false]);
    }
  });

  it('defaults: batch 1000, periods 1000 ms, enabled, one value', () => {
    expect(ZSensorInput.parse(base)).toMatchObject({ batch: 1000, upload_period: 1000, enabled: true, value_count: 1, address: 0 });
  });

  it('name max 32, key is a telemetry key', () => {
    expect(ok({ name: 'n'.repeat(32) })).toBe(true);
    expect(ok({ name: 'n'.repeat(33) })).toBe(false);
    expect(ok({ name: ' ' })).toBe(false);
    expect(ok({ key: 'has space' })).toBe(false);
  });

  it('an update may carry any subset but still checks bounds', () => {
    expect(ZSensorUpdate.safeParse({ upload_period: 5000 }).success).toBe(true);
    expect(ZSensorUpdate.safeParse({ upload_period: 999 }).success).toBe(false);
    expect(ZSensorUpdate.parse({})).toEqual({});
  });
});

describe('telemetry limit', () => {
  it('counts value slots of enabled sensors only', () => {
    expect(
      telemetrySlotsUsed([
        { enabled: true, value_count: 3 },
        { enabled: false, value_count: 3 },
        { enabled: true, value_count: 1 },
      ]),
    ).toBe(4);
    expect(TELEMETRY_VALUE_SLOTS).toBe(32);
  });
});

describe('ZSensorBus and ZSensorDisplayInput', () => {
  it('bus: the four interfaces, port 0–15', () => {
    expect(ZSensorBus.safeParse({ iface: 'I2S', port: 15 }).success).toBe(true);
    expect(ZSensorBus.safeParse({ iface: 'USB', port: 0 }).success).toBe(false);
    expect(ZSensorBus.safeParse({ iface: 'SPI', port: 16 }).success).toBe(false);
  });

  it('display: decimals 0–6, min below max, #rrggbb colour', () => {
    expect(ZSensorDisplayInput.safeParse({ decimals: 6, gauge_min: 0, gauge_max: 100, color: '#00ff00' }).success).toBe(true);
    expect(ZSensorDisplayInput.safeParse({ decimals: 7 }).success).toBe(false);
    expect(ZSensorDisplayInput.safeParse({ gauge_min: 5, gauge_max: 5 }).success).toBe(false);
    expect(ZSensorDisplayInput.safeParse({ color: 'red' }).success).toBe(false);
  });
});

describe('parseStatusImport (easy import)', () => {
  it('reads name;index;length;value=label lines, skipping blanks and comments', () => {
    const r = parseStatusImport('# mode first\nMode;0;2;0=Idle,1=Run,2=Fault\n\nDoor;8;1;0=Closed,1=Open');
    expect(r.errors).toEqual([]);
    expect(r.groups).toEqual([
      {
        name: 'Mode',
        index: 0,
        bytesLength: 2,
        values: [
          { value: 0, label: 'Idle' },
          { value: 1, label: 'Run' },
          { value: 2, label: 'Fault' },
        ],
      },
      {
        name: 'Door',
        index: 8,
        bytesLength: 1,
        values: [
          { value: 0, label: 'Closed' },
          { value: 1, label: 'Open' },
        ],
      },
    ]);
  });

  it(`takes ${EASY_IMPORT_MAX_LINES} lines, refuses ${EASY_IMPORT_MAX_LINES + 1}`, () => {
    const comments = (n: number) => Array.from({ length: n - 1 }, (_, i) => `# ${i}`).join('\n');
    expect(parseStatusImport(`${comments(EASY_IMPORT_MAX_LINES)}\nA;0;1;0=off`).errors).toEqual([]);
    expect(parseStatusImport(`${comments(EASY_IMPORT_MAX_LINES + 1)}\nA;0;1;0=off`).errors[0].line).toBe(0);
  });

  it(`the groups must still pass the status rules (≤ ${MAX_STATUS_LINES} lines, unique codes, fit)`, () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `G${i};${i};1;0=a`).join('\n');
    expect(parseStatusImport(lines(MAX_STATUS_LINES)).groups).toHaveLength(MAX_STATUS_LINES);
    expect(parseStatusImport(lines(MAX_STATUS_LINES + 1)).errors).not.toEqual([]);
    expect(parseStatusImport('A;0;1;0=a,0=b').errors[0]).toMatchObject({ line: 1 });
    expect(parseStatusImport('A;0;1;2=two').errors[0].message).toMatch(/fit/);
  });

  it('names the line of a malformed entry', () => {
    expect(parseStatusImport('Ok;0;1;0=a\nbroken line').errors).toEqual([{ line: 2, message: 'expected name;index;length;value=label,…' }]);
    expect(parseStatusImport('A;0;1;x=a').errors[0].line).toBe(1);
  });
});
