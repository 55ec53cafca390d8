/**
 * Certificates for TLS tests, made with the `openssl` CLI in a scratch directory: a CA, server certificates for
 * 127.0.0.1/localhost and device (client) certificates signed by it, and their SHA-256 fingerprints.
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A certificate and its key, as PEM files. */
export interface TPemPair {
  cert: string;
  key: string;
}

/** A scratch directory for one test file's certificates. */
export function tlsScratchDir(): string {
  return mkdtempSync(join(tmpdir(), 'tessera-tls-'));
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A self-signed CA named `name` in `dir` (EC P-256, 2 days). */
export function makeCa(dir: string, name: string): TPemPair {
  const pair = { cert: join(dir, `${name}.crt`), key: join(dir, `${name}.key`) };
  openssl([
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-keyout',
    pair.key,
    '-out',
    pair.cert,
  ]);
  return pair;
}

/**
 * A certificate for `cn` signed by `ca`, in `dir` under `name`: a server one (SAN 127.0.0.1 and localhost) or a
 * client one (a device's).
 */
export function issueCert(dir: string, ca: TPemPair, name: string, cn: string, kind: 'server' | 'client'): TPemPair {
  const pair = { cert: join(dir, `${name}.crt`), key: join(dir, `${name}.key`) };
  const csr = join(dir, `${name}.csr`);
  const ext = join(dir, `${name}.ext`);
  openssl([
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-subj',
    `/CN=${cn}`,
    '-keyout',
    pair.key,
    '-out',
    csr,
  ]);
  const lines =
    kind === 'server' ? ['subjectAltName=IP:127.0.0.1,DNS:localhost', 'extendedKeyUsage=serverAuth'] : ['extendedKeyUsage=clientAuth'];
  writeFileSync(ext, `${lines.join('\n')}\n`);
  openssl([
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    ca.cert,
    '-CAkey',
    ca.key,
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    ext,
    '-out',
    pair.cert,
  ]);
  return pair;
}

/** The SHA-256 fingerprint of the PEM certificate at `certFile`, as 64 lower-case hex digits. */
export function certFingerprint(certFile: string): string {
  return new X509Certificate(readFileSync(certFile)).fingerprint256.replaceAll(':', '').toLowerCase();
}
