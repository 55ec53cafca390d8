/**
 * Makes Aedes read a device connection's next chunk only while fewer than READ_AHEAD_PACKETS of its packets are being
 * handled, and only while the read gate is open — the back-pressure ingest relies on (docs/decisions/ingest.md
 * "Overload"). Aedes 1.2.0 reads a socket chunk, handles all its packets at once and reads the next chunk when the
 * last one is done (lib/client.js `nextBatch`), but the same function is its `'readable'` listener: data arriving
 * while packets are pending counts as one of them done. Under a steady load it reads one more packet ahead each time,
 * so a device with a large in-flight window had its whole window read into the server (measured: 37,000 publishes
 * held at 5× capacity with a window of 100). Reading only when nothing was pending bounded that, but made every
 * device's next publishes wait unread for its previous chunk's commit: a device with 10 publishes in flight got one
 * batch in flight, 1-point ingest ran at 6,000–10,000 messages/s with the server idle two thirds of the time, and a
 * paced device's publishes queued behind each other (p50 97 ms at 5,000 msg/s). So a connection reads on while it has
 * fewer than READ_AHEAD_PACKETS pending — its publishes join the next batches while the last ones commit — and what
 * all connections together hold stays bounded by `gate` (read-gate.ts); a connection that finds it shut reads when it
 * opens. Its keep-alive timer is refreshed meanwhile: the device did send (a PINGREQ, maybe), the server is the one
 * not reading. Until the CONNACK is sent a connection reads nothing past its CONNECT (broker-guard.ts relies on it).
 */
import type { Client } from 'aedes';
import type { Readable } from 'node:stream';
import type { TReadGate } from './read-gate.js';

/**
 * Packets of one connection pending (handed to Aedes, not yet done) below which its next chunk is read. Above the
 * 10-publish window a device keeps under load (bench/ingest one-point), well below what one chunk of 1-point
 * publishes holds (a 64 KiB read is ~600 of them), so no one device holds much of the read gate's 5,000.
 */
export const READ_AHEAD_PACKETS = 32;

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
  /** True once the CONNACK went out (Aedes queues packets read before it). */
  connackSent: boolean;
  emit: (event: 'error', err: Error) => boolean;
}

/**
 * Everything `conn` has buffered as one Buffer, or null when nothing is: what `read()` returned up to Node 24. Node 26's
 * `read()` returns only the first buffered chunk; a chunk holding no whole packet (a WebSocket carries an MQTT packet in
 * pieces of a few bytes) then left the rest unread until more arrived, and a browser's CONNECT never completed.
 */
export function readBuffered(conn: Readable): Buffer | null {
  const first = conn.read() as Buffer | null;
  if (first === null || conn.readableLength === 0) return first;
  const chunks = [first];
  for (let next = conn.read() as Buffer | null; next !== null; next = conn.read() as Buffer | null) chunks.push(next);
  return Buffer.concat(chunks);
}

/** Applies the rule above to a client just returned by `aedes.handle` (before any data was read). */
export function readAheadBounded(client: Client, gate: TReadGate): Client {
  const reader = client as unknown as TAedesReader;
  if (typeof reader._nextBatch !== 'function' || typeof reader._parsingBatch !== 'number' || typeof reader._parser?.parse !== 'function') {
    throw new Error('aedes internals changed: readAheadBounded needs _nextBatch, _parsingBatch and _parser (see read-ahead.ts)');
  }
  const aedesNextBatch = reader._nextBatch;
  let waitingForGate = false;
  const mayRead = (): boolean => reader._parsingBatch <= 0 || (reader.connackSent && reader._parsingBatch < READ_AHEAD_PACKETS);

  const readChunk = (): void => {
    if (reader.conn.destroyed || reader._paused) return;
    if (!gate.isOpen()) {
      reader._keepaliveTimer?.refresh();
      if (!waitingForGate) {
        waitingForGate = true;
        gate.whenOpen(() => {
          waitingForGate = false;
          if (mayRead()) readChunk();
        });
      }
      return;
    }
    const buf = readBuffered(reader.conn);
    if (buf) reader._parser.parse(buf);
  };

  // Aedes' own nextBatch, with the read going through the gate; Aedes looks the property up at each call.
  reader._nextBatch = (err?: Error) => {
    if (err) {
      reader.emit('error', err);
      return;
    }
    if (reader._paused) return;
    reader._parsingBatch = Math.max(0, reader._parsingBatch - 1);
    if (mayRead()) readChunk();
  };
  reader.conn.removeListener('readable', aedesNextBatch);
  // The first read happens on the first 'readable', as before: drop the one count it would have consumed.
  reader._parsingBatch -= 1;
  reader.conn.on('readable', () => {
    if (mayRead()) readChunk();
  });
  return client;
}
