/**
 * Saving a file the browser holds (a CSV built from an answer, a chart's PNG, a fetched file) as a download: a
 * temporary link with the `download` attribute, clicked and removed; object URLs are released right after.
 */

/** Saves `blob` as a download named `fileName`. */
export function saveBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  saveUrl(fileName, url);
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Saves `text` (CSV by default, UTF-8) as a download named `fileName`. */
export function saveText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  saveBlob(fileName, new Blob([text], { type }));
}

/** Saves what `url` (an object or `data:` URL) holds as a download named `fileName`. */
export function saveUrl(fileName: string, url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/** A local-time stamp for file names: `YYYYMMDD-HHmmss`. */
export function fileStamp(at: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}${p(at.getMonth() + 1)}${p(at.getDate())}-${p(at.getHours())}${p(at.getMinutes())}${p(at.getSeconds())}`;
}
