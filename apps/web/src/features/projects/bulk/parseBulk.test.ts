import { ALREADY_REGISTERED, MAX_BULK_DEVICES, NAME_MAX, type TDeviceRegistered } from '@tessera/contracts';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { applyServerDetails, dropProblemLines, parseCsv, parsePasted, toRequest, verdictOf } from './parseBulk';
import { secretsCsv, secretsFileName } from './secretsCsv';

const kinds = (lines: ReturnType<typeof parsePasted>) => lines.map((l) => l.problems.map((p) => p.kind));

describe('parsePasted', () => {
  it('splits on new lines, commas, semicolons and spaces, numbering the items', () => {
    const lines = parsePasted('A1\nA2, A3;a4\r\n\n  A5\tA6  ');
    expect(lines.map((l) => [l.row, l.serial_number])).toEqual([
      [1, 'A1'],
      [2, 'A2'],
      [3, 'A3'],
      [4, 'a4'],
      [5, 'A5'],
      [6, 'A6'],
    ]);
    expect(verdictOf(lines)).toBe('ready');
    expect(verdictOf(parsePasted('  \n ,'))).toBe('empty');
  });

  it('marks bad hex, over-long serials and repeats (any case, any padding) on their own line', () => {
    const lines = parsePasted('A1 XYZ 1234567890ABC 00a1 abcdefabcdef');
    expect(kinds(lines)).toEqual([[], ['invalid'], ['invalid'], ['duplicate'], []]);
    expect(lines[3].problems[0]).toEqual({ kind: 'duplicate', firstRow: 1 });
    const hex = lines[1].problems[0];
    expect(hex.kind === 'invalid' && hex.issue.message).toBe('hex digits only');
    expect(verdictOf(lines)).toBe('problems');
    expect(dropProblemLines(lines).map((l) => l.serial_number)).toEqual(['A1', 'abcdefabcdef']);
  });

  it('reads pasted text starting with a serial_number header as CSV, keeping names', () => {
    const lines = parsePasted('serial_number,name\nB1,一號泵\nB2,');
    expect(lines.map((l) => [l.row, l.serial_number, l.name])).toEqual([
      [2, 'B1', '一號泵'],
      [3, 'B2', undefined],
    ]);
  });

  it(`allows ${MAX_BULK_DEVICES} lines and refuses one more`, () => {
    const text = (n: number) => Array.from({ length: n }, (_, i) => (i + 0x1000).toString(16)).join('\n');
    expect(verdictOf(parsePasted(text(MAX_BULK_DEVICES)))).toBe('ready');
    expect(verdictOf(parsePasted(text(MAX_BULK_DEVICES + 1)))).toBe('tooMany');
  });
});

describe('parseCsv', () => {
  it('reads serial_number[,name] with or without a header, any column order, BOM and quotes', () => {
    expect(parseCsv('C1,Pump 1\nC2\n').map((l) => [l.row, l.serial_number, l.name])).toEqual([
      [1, 'C1', 'Pump 1'],
      [2, 'C2', undefined],
    ]);
    const lines = parseCsv('\uFEFFName;Serial Number\r\n"Pump, north";c3\r\n;C4\r\n');
    expect(lines.map((l) => [l.row, l.serial_number, l.name])).toEqual([
      [2, 'c3', 'Pump, north'],
      [3, 'C4', undefined],
    ]);
  });

  it(`marks a name over ${NAME_MAX} characters; exactly ${NAME_MAX} is fine`, () => {
    const lines = parseCsv(`D1,${'n'.repeat(NAME_MAX)}\nD2,${'n'.repeat(NAME_MAX + 1)}`);
    expect(kinds(lines)).toEqual([[], ['invalid']]);
    expect(lines[1].problems[0]).toMatchObject({ kind: 'invalid', field: 'name' });
  });

  it('builds the request in the devices form, names only where given', () => {
    expect(toRequest(parseCsv('E1,Fan\nE2'))).toEqual({ devices: [{ serial_number: 'E1', name: 'Fan' }, { serial_number: 'E2' }] });
  });
});

describe('applyServerDetails', () => {
  it('marks the lines the server named by index, leaving the others', () => {
    const lines = parsePasted('F1 F2 F3');
    const marked = applyServerDetails(lines, [
      { path: 'body/devices/2/serial_number', message: ALREADY_REGISTERED },
      { path: 'body/devices/0/name', message: 'Too big' },
      { path: 'body/other', message: 'ignored' },
    ]);
    expect(kinds(marked)).toEqual([['server'], [], ['registered']]);
    expect(verdictOf(marked)).toBe('problems');
    expect(dropProblemLines(marked).map((l) => l.serial_number)).toEqual(['F2']);
  });
});

describe('secrets CSV', () => {
  it('has the header tangram_id,serial_number,secret and one row per device, parseable back', () => {
    const device = (sno: string, secret: string) =>
      ({ tangram_id: `54${sno.padStart(28, '0')}`, sno, device_secret: secret }) as TDeviceRegistered;
    const csv = secretsCsv([device('0000000000A1', '-abc_DEF'), device('0000000000A2', 'xyz')]);
    expect(csv.split('\r\n')[0]).toBe('tangram_id,serial_number,secret');
    expect(Papa.parse<string[]>(csv).data).toEqual([
      ['tangram_id', 'serial_number', 'secret'],
      [`54${'0000000000A1'.padStart(28, '0')}`, '0000000000A1', '-abc_DEF'],
      [`54${'0000000000A2'.padStart(28, '0')}`, '0000000000A2', 'xyz'],
    ]);
  });

  it('names the file after the project and the local time', () => {
    expect(secretsFileName(7, new Date(2026, 0, 2, 3, 4, 5))).toBe('devices-7-20260102-030405.csv');
  });
});
