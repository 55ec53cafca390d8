/**
 * Which bytes a download answers (RFC 9110 §14; docs/decisions/ai.md "Downloads"): one `Range: bytes=…` range is
 * served (206), several or another unit are ignored (the whole file, 200), and a range that is malformed or starts
 * past the end is refused (416). `If-Range` holding anything but the file's ETag asks for the whole file: the file a
 * client resumes must be the one it started.
 */

/** What to send: the whole file, bytes `start`…`end` (inclusive), or 416. */
export type TByteRangeChoice = { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

const ONE_RANGE = /^(\d*)-(\d*)$/;

/**
 * The answer to `range` (the `Range` header) for a file of `bytes` bytes whose strong ETag is `etag`; `ifRange` is the
 * `If-Range` header (a date never matches: downloads carry no Last-Modified).
 */
export function chooseByteRange(range: string | undefined, bytes: number, etag: string, ifRange?: string): TByteRangeChoice {
  if (range === undefined) return { kind: 'whole' };
  if (ifRange !== undefined && ifRange !== etag) return { kind: 'whole' };
  const match = /^\s*bytes\s*=(.*)$/i.exec(range);
  if (!match) return { kind: 'whole' };
  const specs = match[1].split(',').map((s) => s.trim());
  if (specs.length > 1) return { kind: 'whole' };
  const spec = ONE_RANGE.exec(specs[0]);
  if (!spec || (spec[1] === '' && spec[2] === '')) return { kind: 'unsatisfiable' };
  if (spec[1] === '') {
    const suffix = Number(spec[2]);
    if (suffix === 0 || bytes === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, bytes - suffix), end: bytes - 1 };
  }
  const start = Number(spec[1]);
  const end = spec[2] === '' ? bytes - 1 : Math.min(Number(spec[2]), bytes - 1);
  if (start >= bytes || (spec[2] !== '' && Number(spec[2]) < start)) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end };
}
