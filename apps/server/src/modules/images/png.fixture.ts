/**
 * Test fixture: a real PNG encoder (signature, IHDR, IDAT, IEND with CRCs), optionally padded with a private
 * ancillary chunk to an exact file size, so size bounds are tested with files that are genuinely images.
 */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHUNK_OVERHEAD = 12;

/** A `width`×`height` RGB PNG of one colour; with `totalBytes`, padded to exactly that many bytes. */
export function makePng(opts: { width?: number; height?: number; rgb?: [number, number, number]; totalBytes?: number } = {}): Buffer {
  const { width = 4, height = 4, rgb = [200, 30, 30] } = opts;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const parts = [SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row))))];
  const end = chunk('IEND', Buffer.alloc(0));
  const size = parts.reduce((n, p) => n + p.length, 0) + end.length;
  if (opts.totalBytes !== undefined) {
    const pad = opts.totalBytes - size - CHUNK_OVERHEAD;
    if (pad < 0) throw new Error(`a PNG cannot be ${opts.totalBytes} bytes`);
    parts.push(chunk('prVt', Buffer.alloc(pad, 0x2a)));
  }
  return Buffer.concat([...parts, end]);
}
