/**
 * Makes Aedes read a connection only when everything it read before has been handled — the per-connection
 * back-pressure ingest relies on (docs/decisions/ingest.md "Overload"). Aedes 1.2.0 reads a socket chunk, handles
 * all its packets at once and reads the next chunk when the last one is done (lib/client.js `nextBatch`), but the
 * same function is its `'readable'` listener: data arriving while packets are pending counts as one of them done.
 * Under a steady load it reads one more packet ahead each time, so a device with a large in-flight window has its
 * whole window read into the server while ingest is full (measured: 37,000 publishes held at 5× capacity with a
 * window of 100). Here `'readable'` reads only when nothing is pending; a pending packet's completion reads on.
 */
import type { Client } from 'aedes';
import type { Readable } from 'node:stream';

/** The parts of Aedes' Client this relies on (present in aedes 1.2.0, which package.json pins). */
interface TAedesReader {
  conn: Readable;
  /** Packets being handled, plus one before the first read. */
  _parsingBatch: number;
  /** Counts one packet done and, when none is left, reads and parses the next chunk. */
  _nextBatch: (err?: Error) => void;
}

/** Applies the rule above to a client just returned by `aedes.handle` (before any data was read). */
export function readOnlyWhenIdle(client: Client): Client {
  const reader = client as unknown as TAedesReader;
  if (typeof reader._nextBatch !== 'function' || typeof reader._parsingBatch !== 'number') {
    throw new Error('aedes internals changed: readOnlyWhenIdle needs _nextBatch and _parsingBatch (see read-ahead.ts)');
  }
  reader.conn.removeListener('readable', reader._nextBatch);
  // The first read happens on the first 'readable', as before: drop the one count it would have consumed.
  reader._parsingBatch -= 1;
  reader.conn.on('readable', () => {
    if (reader._parsingBatch <= 0) reader._nextBatch();
  });
  return client;
}
