/**
 * A local Web Push service for tests (the real ones — FCM, Mozilla autopush — are on the internet): it plays the
 * browser's side too. It makes a subscriber key pair and auth secret as a browser does, receives the server's push
 * requests, checks the VAPID Authorization (RFC 8292: an ES256 JWT whose `aud` is this service's origin, signed by
 * the key named in `k`), and decrypts the payload with the subscriber's private key (RFC 8291, aes128gcm — written
 * here from the RFC, not with the library the server sends with). It answers `nextStatus` (201 by default).
 */
import { createECDH, createDecipheriv, createHmac, randomBytes, type ECDH } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';

/** One push request as the service saw it. */
export interface TReceivedPush {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The decrypted payload (UTF-8), or the reason it could not be decrypted. */
  plaintext: string;
  /** The VAPID JWT's claims when it verified, else the reason. */
  vapid: { aud: string; sub: string; exp: number } | string;
}

/** A subscriber (a browser) of the fake service. */
export interface TFakeSubscriber {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** The running fake. */
export interface TFakePushService {
  origin: string;
  received: TReceivedPush[];
  /** Status answered to the next requests (201 accepted, 410 gone, 503 outage…). */
  nextStatus: number;
  /** A new browser subscription on this service. */
  subscriber(name: string): TFakeSubscriber;
  stop(): Promise<void>;
}

const b64u = (b: Buffer) => b.toString('base64url');
const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 8291 §3.4 / RFC 8188: decrypts an aes128gcm body for the subscriber `ecdh` with `authSecret`. */
function decrypt(body: Buffer, ecdh: ECDH, authSecret: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const asPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const uaPublic = ecdh.getPublicKey();
  const shared = ecdh.computeSecret(asPublic);
  const prkKey = hmac(authSecret, shared);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic, Buffer.from([1])]);
  const ikm = hmac(prkKey, keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  const end = padded.lastIndexOf(2);
  return padded.subarray(0, end).toString('utf8');
}

/** Verifies `vapid t=<jwt>, k=<key>` against `origin`. */
async function checkVapid(authorization: string | undefined, origin: string): Promise<TReceivedPush['vapid']> {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!m) return `no vapid authorization: ${authorization}`;
  try {
    const point = Buffer.from(m[2], 'base64url');
    const jwk = { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33, 65)) };
    if (decodeProtectedHeader(m[1]).alg !== 'ES256') return 'not ES256';
    const { payload } = await jwtVerify(m[1], await importJWK(jwk, 'ES256'), { audience: origin });
    return { aud: String(payload.aud), sub: String(payload.sub), exp: Number(payload.exp) };
  } catch (err) {
    return `vapid refused: ${(err as Error).message}`;
  }
}

/** Starts the fake on a free port of 127.0.0.1. */
export async function startFakePushService(): Promise<TFakePushService> {
  const subscribers = new Map<string, { ecdh: ECDH; auth: Buffer }>();
  const fake: TFakePushService = {
    origin: '',
    received: [],
    nextStatus: 201,
    subscriber(name) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      subscribers.set(`/push/${name}`, { ecdh, auth });
      return { endpoint: `${fake.origin}/push/${name}`, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } };
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const path = req.url ?? '';
      const sub = subscribers.get(path);
      let plaintext: string;
      try {
        plaintext = sub ? decrypt(Buffer.concat(chunks), sub.ecdh, sub.auth) : 'unknown subscriber';
      } catch (err) {
        plaintext = `undecryptable: ${(err as Error).message}`;
      }
      fake.received.push({ path, headers: req.headers, plaintext, vapid: await checkVapid(req.headers.authorization, fake.origin) });
      res.writeHead(fake.nextStatus).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
