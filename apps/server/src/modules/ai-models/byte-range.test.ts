import { describe, expect, it } from 'vitest';
import { chooseByteRange } from './byte-range.js';

const ETAG = '"abc"';
const of = (range: string | undefined, ifRange?: string) => chooseByteRange(range, 1000, ETAG, ifRange);

describe('chooseByteRange (RFC 9110 §14)', () => {
  it('serves the whole file without a Range, with another unit, or with several ranges', () => {
    expect(of(undefined)).toEqual({ kind: 'whole' });
    expect(of('items=0-5')).toEqual({ kind: 'whole' });
    expect(of('bytes=0-1, 5-6')).toEqual({ kind: 'whole' });
  });

  it('serves one range, its end cut to the file', () => {
    expect(of('bytes=0-0')).toEqual({ kind: 'part', start: 0, end: 0 });
    expect(of('bytes=100-199')).toEqual({ kind: 'part', start: 100, end: 199 });
    expect(of('bytes=500-')).toEqual({ kind: 'part', start: 500, end: 999 });
    expect(of('bytes=990-5000')).toEqual({ kind: 'part', start: 990, end: 999 });
    expect(of('BYTES = 7-8')).toEqual({ kind: 'part', start: 7, end: 8 });
  });

  it('serves a suffix: the last n bytes, or the whole file when n is larger', () => {
    expect(of('bytes=-100')).toEqual({ kind: 'part', start: 900, end: 999 });
    expect(of('bytes=-5000')).toEqual({ kind: 'part', start: 0, end: 999 });
  });

  it('refuses a range past the end, backwards, empty or malformed', () => {
    for (const range of ['bytes=1000-', 'bytes=1000-1001', 'bytes=5-4', 'bytes=-0', 'bytes=-', 'bytes=a-b', 'bytes=1.5-2', 'bytes=']) {
      expect(of(range), range).toEqual({ kind: 'unsatisfiable' });
    }
    expect(chooseByteRange('bytes=0-', 0, ETAG)).toEqual({ kind: 'unsatisfiable' });
    expect(chooseByteRange('bytes=-1', 0, ETAG)).toEqual({ kind: 'unsatisfiable' });
  });

  it('resumes only the same file: an If-Range of another ETag or a date gets the whole file', () => {
    expect(of('bytes=500-', ETAG)).toEqual({ kind: 'part', start: 500, end: 999 });
    expect(of('bytes=500-', '"other"')).toEqual({ kind: 'whole' });
    expect(of('bytes=500-', 'Wed, 21 Oct 2015 07:28:00 GMT')).toEqual({ kind: 'whole' });
    expect(of('bytes=500-', `W/${ETAG}`)).toEqual({ kind: 'whole' });
  });
});
