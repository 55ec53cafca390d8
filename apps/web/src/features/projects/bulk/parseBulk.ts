/**
 * The bulk-registration preview (docs/decisions/devices-bulk.md): turns a pasted list or a CSV file into lines of
 * `{ serial_number, name? }`, each checked with the contracts' rules (ZDeviceRegister: hex, ≤ 12 digits, name ≤ 32),
 * repeats within the list (compared as the server does, {@link serialKey}), and — after a refused registration —
 * the server's per-line answer (already registered). Pure: no React, no i18n (the component translates).
 */
import {
  ALREADY_REGISTERED,
  DUPLICATE_SERIAL,
  MAX_BULK_DEVICES,
  serialKey,
  type TDeviceBulkRegister,
  type TErrorBody,
  ZDeviceRegister,
} from '@tessera/contracts';
import Papa from 'papaparse';
import type { z } from 'zod';

/** Why a line cannot be registered. */
export type TLineProblem =
  /** A field breaks the contracts' schema; the component words the issue (zodRules.issueMessage). */
  | { kind: 'invalid'; field: 'serial_number' | 'name'; issue: z.core.$ZodIssue; value: string }
  /** The same serial (padded, any case) is on an earlier line. */
  | { kind: 'duplicate'; firstRow: number }
  /** The server answered that this serial is already registered. */
  | { kind: 'registered' }
  /** Any other per-line refusal from the server, in its words. */
  | { kind: 'server'; message: string };

/** One line of the preview. `row` is its 1-based position in the input (a CSV row, or an item of a pasted list). */
export interface TBulkLine {
  row: number;
  serial_number: string;
  name?: string;
  problems: TLineProblem[];
}

/** Header names accepted for the serial and name columns of a CSV (case and spaces ignored). */
const SERIAL_HEADERS = ['serial_number', 'serialnumber', 'serial', 'sno'];
const NAME_HEADERS = ['name', 'device_name'];
const headerKey = (cell: string) => cell.trim().toLowerCase().replace(/\s+/g, '_');

/** Drops a UTF-8 byte-order mark (spreadsheets write one). */
const stripBom = (text: string) => text.replace(/^\uFEFF/, '');

/** True when `cells` (a first row) is a header: one of them names the serial column. */
const isHeader = (cells: string[]) => cells.some((c) => SERIAL_HEADERS.includes(headerKey(c)));

/** True when the text's first line is a CSV header naming the serial column. */
function hasHeader(text: string): boolean {
  const first = stripBom(text).trimStart().split(/\r?\n/, 1)[0] ?? '';
  return isHeader(first.split(/[,;\t]/));
}

/** Checks one line's fields with the contracts' schema. */
function fieldProblems(serial: string, name: string | undefined): TLineProblem[] {
  const parsed = ZDeviceRegister.safeParse({ serial_number: serial, name });
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const field = issue.path[0] === 'name' ? 'name' : 'serial_number';
    return { kind: 'invalid', field, issue, value: (field === 'name' ? name : serial) ?? '' };
  });
}

/** Re-checks repeats over `lines` (a later line repeating an earlier serial is marked), keeping other problems. */
export function withDuplicates(lines: TBulkLine[]): TBulkLine[] {
  const first = new Map<string, number>();
  return lines.map((line) => {
    const problems: TLineProblem[] = line.problems.filter((p) => p.kind !== 'duplicate');
    const key = serialKey(line.serial_number);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, line.row);
    else if (line.serial_number.trim()) problems.push({ kind: 'duplicate', firstRow: earlier });
    return { ...line, problems };
  });
}

function toLines(entries: { serial: string; name?: string }[], firstRow: number): TBulkLine[] {
  return withDuplicates(
    entries.map((e, i) => {
      const name = e.name?.trim() ? e.name : undefined;
      return { row: i + firstRow, serial_number: e.serial.trim(), name, problems: fieldProblems(e.serial, name) };
    }),
  );
}

/**
 * Parses a CSV file's text: columns `serial_number[,name]` with an optional header row (which may name the columns
 * in any order); comma, semicolon or tab separated (papaparse detects which); empty rows skipped.
 */
export function parseCsv(text: string): TBulkLine[] {
  const rows = Papa.parse<string[]>(stripBom(text), { skipEmptyLines: 'greedy' }).data;
  let serialAt = 0;
  let nameAt = 1;
  let firstRow = 1;
  if (rows.length && isHeader(rows[0])) {
    const header = rows.shift()!.map(headerKey);
    serialAt = header.findIndex((h) => SERIAL_HEADERS.includes(h));
    nameAt = header.findIndex((h) => NAME_HEADERS.includes(h));
    firstRow = 2;
  }
  return toLines(
    rows.map((cells) => ({ serial: cells[serialAt] ?? '', name: nameAt >= 0 ? cells[nameAt] : undefined })),
    firstRow,
  );
}

/**
 * Parses pasted text: serial numbers separated by new lines, commas, semicolons, tabs or spaces. Text whose first
 * line is a CSV header (`serial_number,name`) is read as CSV instead, so a pasted spreadsheet keeps its names.
 */
export function parsePasted(text: string): TBulkLine[] {
  if (hasHeader(text)) return parseCsv(text);
  const serials = stripBom(text)
    .split(/[\s,;]+/)
    .filter((s) => s !== '');
  return toLines(
    serials.map((serial) => ({ serial })),
    1,
  );
}

/** Nothing to register, too many lines, or lines with problems. */
export type TBulkVerdict = 'empty' | 'tooMany' | 'problems' | 'ready';

/** Whether `lines` can be sent as they are. */
export function verdictOf(lines: TBulkLine[]): TBulkVerdict {
  if (lines.length === 0) return 'empty';
  if (lines.length > MAX_BULK_DEVICES) return 'tooMany';
  return lines.some((l) => l.problems.length) ? 'problems' : 'ready';
}

/** The request body for `lines` (the `devices` form, so names travel with their serials). */
export function toRequest(lines: TBulkLine[]): TDeviceBulkRegister {
  return { devices: lines.map((l) => ({ serial_number: l.serial_number, ...(l.name ? { name: l.name } : {}) })) };
}

/**
 * Marks the lines the server refused, from the `details` of its 400 or 409 answer (paths such as
 * `body/devices/3/serial_number` name the line by its index in the request, which is the index in `lines`).
 */
export function applyServerDetails(lines: TBulkLine[], details: TErrorBody['details']): TBulkLine[] {
  const byIndex = new Map<number, TLineProblem[]>();
  for (const d of details ?? []) {
    const index = /^body\/devices\/(\d+)(\/|$)/.exec(d.path)?.[1];
    if (index === undefined) continue;
    if (d.message === DUPLICATE_SERIAL) continue; // the preview already marks repeats
    const problem: TLineProblem = d.message === ALREADY_REGISTERED ? { kind: 'registered' } : { kind: 'server', message: d.message };
    byIndex.set(Number(index), [...(byIndex.get(Number(index)) ?? []), problem]);
  }
  return lines.map((line, i) => (byIndex.has(i) ? { ...line, problems: [...line.problems, ...byIndex.get(i)!] } : line));
}

/** `lines` without those that have problems (of repeated serials, the first stays when it is fine itself). */
export function dropProblemLines(lines: TBulkLine[]): TBulkLine[] {
  return withDuplicates(lines.filter((l) => l.problems.length === 0));
}
