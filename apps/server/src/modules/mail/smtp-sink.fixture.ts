/**
 * Test fixture: a real SMTP server (the `smtp-server` package) on a loopback port that keeps every mail it
 * receives, decoded enough to read recipient, subject and plain-text body (RFC 2047 words, base64 and
 * quoted-printable as nodemailer writes them). Recipients whose address starts with `reject` are refused.
 */
import { createServer, type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One received mail. */
export interface TReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/** A running SMTP sink. */
export interface TSmtpSink {
  port: number;
  url: string;
  mails: TReceivedMail[];
  /** Resolves with the first mail (received or to come) matching `pick`; rejects after `timeoutMs`. */
  waitFor(pick: (m: TReceivedMail) => boolean, timeoutMs?: number): Promise<TReceivedMail>;
  stop(): Promise<void>;
}

/** A free loopback port (for a server that starts later). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A loopback port held for a server that starts later; meanwhile every connection to it is reset at once. */
export interface THeldPort {
  port: number;
  /** Frees the port (idempotent): call it right before the server that takes it starts. */
  release(): Promise<void>;
}

/**
 * Holds a free loopback port for an SMTP server that is down now and starts later: connections are accepted and
 * reset at once (a server that is down, as a client sees it), and no other process can take the port meanwhile —
 * a port merely probed free ({@link freePort}) may be taken by another test's socket before the sink binds it.
 */
export async function holdPort(): Promise<THeldPort> {
  const holder = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const { port } = holder.address() as AddressInfo;
  let released: Promise<void> | null = null;
  return {
    port,
    release() {
      released ??= new Promise<void>((resolve) => holder.close(() => resolve()));
      return released;
    },
  };
}

/** Starts the sink on `port` (0 = any free one). */
export async function startSmtpSink(port = 0): Promise<TSmtpSink> {
  const mails: TReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Recipients starting with "reject" get a permanent SMTP error (550), to test delivery failures.
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('reject')) return callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), ...parseMessage(Buffer.concat(chunks).toString('utf8')) });
        for (const w of waiters) w();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.server.address() as AddressInfo).port;
  return {
    port: bound,
    url: `smtp://127.0.0.1:${bound}`,
    mails,
    waitFor(pick, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = mails.find(pick);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching mail within ${timeoutMs} ms (got ${mails.length})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function parseMessage(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headerText = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of headerText.split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const body = raw.slice(split + 4);
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body, 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body.replace(/=\r\n/g, ''))
        : body;
  return { subject: decodeWords(headers.get('subject') ?? ''), text: text.replace(/\r\n/g, '\n') };
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (_m, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(value: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(value.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(value.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(value[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
