/**
 * Makes Aedes read a connection only when everything it read before has been handled, and only while the read gate
 * is open — the back-pressure ingest relies on (docs/decisions/ingest.md "Overload"). Aedes 1.2.0 reads a socket
 * chunk, handles all its packets at once and reads the next chunk when the last one is done (lib/client.js
 * `nextBatch`), but the same function is its `'readable'` listener: data arriving while packets are pending counts as
 * one of them done. Under a steady load it reads one more packet ahead each time, so a device with a large in-flight
 * window has its whole window read into the server while ingest is full (measured: 37,000 publishes held at 5×
 * capacity with a window of 100). Here `'readable'` reads only when nothing is pending; a pending packet's completion
 * reads on. Either way the next chunk is read only while `gate` (read-gate.ts: what all connections together have
 * open) is open; a connection that finds it shut reads when it opens. Its keep-alive timer is refreshed meanwhile:
 * the device did send (a PINGREQ, maybe), the server is the one not reading.
 */
import type { Client } from 'aedes';
import type { Readable } from 'node:stream';
import type { TReadGate } from './read-gate.js';

/** The parts of Aedes' Client this relies on (present in aedes 1.2.0, which package.json pins). */
interface TAedesReader {
  conn: Readable;
  /** Packets being handled, plus one before the first read. */
  _parsingBatch: number;
  /** Counts one packet done and, when none is left, reads and parses the next chunk. */
  _nextBatch: (err?: Error) => void;
  _paused: boolean;
  _parser: { parse: (buf: Buffer) => void };
  _keepaliveTimer: NodeJS.Timeout | null;
  emit: (event: 'error', err: Error) => boolean;
}

/** Applies the rule above to a client just returned by `aedes.handle` (before any data was read). */
export function readOnlyWhenIdle(client: Client, gate: TReadGate): Client {
  const reader = client as unknown as TAedesReader;
  if (typeof reader._nextBatch !== 'function' || typeof reader._parsingBatch !== 'number' || typeof reader._parser?.parse !== 'function') {
    throw new Error('aedes internals changed: readOnlyWhenIdle needs _nextBatch, _parsingBatch and _parser (see read-ahead.ts)');
  }
  const aedesNextBatch = reader._nextBatch;
  let waitingForGate = false;

  const readChunk = (): void => {
    if (reader.conn.destroyed || reader._paused) return;
    if (!gate.isOpen()) {
      reader._keepaliveTimer?.refresh();
      if (!waitingForGate) {
        waitingForGate = true;
        gate.whenOpen(() => {
          waitingForGate = false;
          if (reader._parsingBatch <= 0) readChunk();
        });
      }
      return;
    }
    const buf = reader.conn.read() as Buffer | null;
    if (buf) reader._parser.parse(buf);
  };

  // Aedes' own nextBatch, with the read going through the gate; Aedes looks the property up at each call.
  reader._nextBatch = (err?: Error) => {
    if (err) {
      reader.emit('error', err);
      return;
    }
    if (reader._paused) return;
    reader._parsingBatch -= 1;
    if (reader._parsingBatch > 0) return;
    reader._parsingBatch = 0;
    readChunk();
  };
  reader.conn.removeListener('readable', aedesNextBatch);
  // The first read happens on the first 'readable', as before: drop the one count it would have consumed.
  reader._parsingBatch -= 1;
  reader.conn.on('readable', () => {
    if (reader._parsingBatch <= 0) readChunk();
  });
  return client;
}
