import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBuffered } from './read-ahead.js';

/** A connection whose incoming bytes the test pushes, like a WebSocket stream handing on one message at a time. */
function connection(): Duplex {
  return new Duplex({ read() {}, write: (_chunk, _encoding, done) => done() });
}

describe('readBuffered', () => {
  it('hands on every chunk buffered so far as one buffer, on every Node version', () => {
    const conn = connection();
    // An MQTT CONNECT in the pieces a browser's WebSocket client sends it: fixed header, length, then the rest.
    const pieces = [Buffer.from([0x10]), Buffer.from([0x0c]), Buffer.from([0x00, 0x04]), Buffer.from('MQTT')];
    for (const piece of pieces) conn.push(piece);
    expect(readBuffered(conn)).toEqual(Buffer.concat(pieces));
    expect(conn.readableLength).toBe(0);
    expect(readBuffered(conn)).toBeNull();
  });

  it('reads what arrives later on the next readable event', async () => {
    const conn = connection();
    const received: Buffer[] = [];
    conn.on('readable', () => {
      const buf = readBuffered(conn);
      if (buf) received.push(buf);
    });
    conn.push(Buffer.from('ab'));
    conn.push(Buffer.from('c'));
    await new Promise((r) => setImmediate(r));
    conn.push(Buffer.from('de'));
    await new Promise((r) => setImmediate(r));
    expect(Buffer.concat(received).toString()).toBe('abcde');
    expect(received.map(String)).toEqual(['abc', 'de']);
  });
});
