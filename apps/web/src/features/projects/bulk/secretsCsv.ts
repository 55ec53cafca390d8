/**
 * The one-time secrets file of a bulk registration (docs/decisions/devices-bulk.md): CSV with the header
 * `tangram_id,serial_number,secret`, one row per registered device in registration order, CRLF line ends (RFC 4180,
 * what spreadsheets expect). Built in the browser from the registration answer; the server keeps no copy.
 */
import type { TDeviceRegistered } from '@tessera/contracts';
import Papa from 'papaparse';
import { fileStamp } from '../../../lib/saveFile';

/** The CSV columns, in order. */
export const SECRETS_CSV_FIELDS = ['tangram_id', 'serial_number', 'secret'] as const;

/** The CSV text for `devices`. */
export function secretsCsv(devices: TDeviceRegistered[]): string {
  return Papa.unparse(
    { fields: [...SECRETS_CSV_FIELDS], data: devices.map((d) => [d.tangram_id, d.sno, d.device_secret]) },
    { newline: '\r\n' },
  );
}

/** The file name: `devices-<project id>-<YYYYMMDD-HHmmss>.csv` in local time. */
export function secretsFileName(projectId: number, at: Date): string {
  return `devices-${projectId}-${fileStamp(at)}.csv`;
}
