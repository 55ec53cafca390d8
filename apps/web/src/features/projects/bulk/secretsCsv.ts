/**
 * The one-time secrets file of a bulk registration (docs/decisions/devices-bulk.md): CSV with the header
 * `tangram_id,serial_number,secret`, one row per registered device in registration order, CRLF line ends (RFC 4180,
 * what spreadsheets expect). Built in the browser from the registration answer; the server keeps no copy.
 */
import type { TDeviceRegistered } from '@tessera/contracts';
import Papa from 'papaparse';

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
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}${p(at.getMonth() + 1)}${p(at.getDate())}-${p(at.getHours())}${p(at.getMinutes())}${p(at.getSeconds())}`;
  return `devices-${projectId}-${stamp}.csv`;
}

/** Saves `text` as a download named `fileName` (an object URL on a temporary link, released right after). */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
