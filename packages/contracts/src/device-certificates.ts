/**
 * A device's X.509 client certificate for MQTT over TLS (docs/deployment.md "Certificate login"): registered on the
 * device page by its SHA-256 fingerprint; a device presenting it on the TLS listener logs in without its secret.
 */
import { z } from 'zod';
import { API } from './api-paths.js';

/** The certificate routes of device `tangramId`: GET, PUT, DELETE. */
export const deviceCertificatePath = (tangramId: string) => `${API.frontstage}/devices/${tangramId}/certificate`;

/**
 * A SHA-256 certificate fingerprint as people copy it (`openssl x509 -noout -fingerprint -sha256` prints
 * `sha256 Fingerprint=AB:CD:…`): 64 hex digits, with or without colons or spaces, any case, an optional
 * `sha256 Fingerprint=` prefix; answered as 64 lower-case hex digits.
 */
export const ZCertificateFingerprint = z
  .string()
  .trim()
  .max(200)
  .transform((v) =>
    v
      .replace(/^sha-?256\s*fingerprint\s*=\s*/i, '')
      .replace(/[:\s]/g, '')
      .toLowerCase(),
  )
  .pipe(z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 fingerprint: 64 hex digits (colons allowed)'));

/** PUT body: the certificate to register (replaces the device's previous one). */
export const ZDeviceCertificateInput = z.object({ fingerprint: ZCertificateFingerprint });
export type TDeviceCertificateInput = z.input<typeof ZDeviceCertificateInput>;

/** The device's registered certificate: its fingerprint (64 lower-case hex digits) and when it was registered (epoch ms), or none. */
export const ZDeviceCertificate = z.object({
  tangram_id: z.string(),
  fingerprint: z.string().nullable(),
  registered_at: z.number().int().nullable(),
});
export type TDeviceCertificate = z.infer<typeof ZDeviceCertificate>;
