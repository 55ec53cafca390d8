/**
 * The embedded broker's MQTT-over-TLS listener (docs/deployment.md "MQTT over TLS"): the certificate chain and key
 * from PEM files, and optionally a CA bundle whose client certificates are asked for (certificate login,
 * cert-login.ts). The files are watched; when they change (a renewal) the new certificate is loaded with
 * `setSecureContext`, which applies to new handshakes only — connected devices keep their sessions. A change that
 * does not load (a key that does not match, a half-written file) is logged and the previous certificate kept.
 */
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer, type SecureContextOptions, type Server, type TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import { MQTT_CONNECT_TIMEOUT_MS } from '@tessera/contracts';

/** How often the certificate files are checked for a change, in milliseconds (fs.watchFile polls: renames count). */
export const TLS_WATCH_INTERVAL_MS = 2_000;

/** Where the listener's certificate comes from. */
export interface TTlsFiles {
  certFile: string;
  keyFile: string;
  /** Client certificates are requested and checked against this bundle (an unverified one is not refused at TLS). */
  caFile?: string;
  /** Overrides {@link TLS_WATCH_INTERVAL_MS} (tests). */
  watchIntervalMs?: number;
}

/** A running TLS listener. */
export interface TTlsListener {
  port: number;
  /** Stops accepting; open connections stay (the broker closes them). */
  close(): void;
  /** How many times a changed certificate was loaded since start. */
  reloads(): number;
}

function secureContextOf(files: TTlsFiles): SecureContextOptions {
  return {
    cert: readFileSync(files.certFile),
    key: readFileSync(files.keyFile),
    ca: files.caFile ? readFileSync(files.caFile) : undefined,
  };
}

/**
 * Listens for MQTT over TLS on `host:port`; each handshaken socket goes to `onSocket`.
 * @throws when the files cannot be read or do not make a certificate (start-up stops with that message), or the port
 * is taken (EADDRINUSE).
 */
export async function listenTls(
  files: TTlsFiles,
  port: number,
  host: string,
  onSocket: (socket: TLSSocket) => void,
  log: Logger,
): Promise<TTlsListener> {
  // requestCert without rejectUnauthorized: a device without a certificate still logs in with its secret; an
  // unverified certificate logs in no one (cert-login.ts reads socket.authorized).
  const server: Server = createServer(
    { ...secureContextOf(files), requestCert: Boolean(files.caFile), rejectUnauthorized: false, handshakeTimeout: MQTT_CONNECT_TIMEOUT_MS },
    onSocket,
  );
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  let reloads = 0;
  const reload = () => {
    try {
      server.setSecureContext(secureContextOf(files));
      reloads += 1;
      log.info({ certFile: files.certFile }, 'MQTT TLS certificate reloaded');
    } catch (err) {
      log.warn(
        { err: (err as Error).message, certFile: files.certFile },
        'MQTT TLS certificate changed but did not load; the previous one stays',
      );
    }
  };
  const watched = [files.certFile, files.keyFile, ...(files.caFile ? [files.caFile] : [])];
  const interval = files.watchIntervalMs ?? TLS_WATCH_INTERVAL_MS;
  const onChange = (curr: { mtimeMs: number }, prev: { mtimeMs: number }) => {
    if (curr.mtimeMs !== prev.mtimeMs) reload();
  };
  for (const file of watched) watchFile(file, { interval, persistent: false }, onChange);
  return {
    port: (server.address() as AddressInfo).port,
    reloads: () => reloads,
    close() {
      for (const file of watched) unwatchFile(file, onChange);
      server.close();
    },
  };
}
