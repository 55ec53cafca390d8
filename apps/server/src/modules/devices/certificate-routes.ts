/**
 * `/frontstage/v1/devices/:tangramId/certificate` (docs/deployment.md "Certificate login"): a vendor reads, registers
 * and revokes the device's MQTT client certificate. Changing it needs a signed-in session, like regenerating the
 * secret (a credential of the device).
 */
import { ZDeviceCertificate, ZDeviceCertificateInput, ZTangramIdParam } from '@tessera/contracts';
import { z } from 'zod';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireVendor } from '../../core/principal.js';
import { requireSession } from '../auth/session-guard.js';
import { getDeviceCertificate, registerDeviceCertificate, revokeDeviceCertificate } from './device-certificate.js';

const tags = ['devices'];

/** Registers the certificate routes (prefix `/frontstage/v1`). */
export async function deviceCertificateRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db, bus } = ctx;
  app.get(
    '/devices/:tangramId/certificate',
    {
      preHandler: requireVendor,
      schema: {
        tags,
        summary: "Read the device's registered MQTT client certificate",
        params: ZTangramIdParam,
        response: { 200: ZDeviceCertificate },
      },
    },
    (req) => getDeviceCertificate(db, principalOf(req), req.params.tangramId),
  );
  app.put(
    '/devices/:tangramId/certificate',
    {
      preHandler: [requireVendor, requireSession],
      schema: {
        tags,
        summary: "Register the device's MQTT client certificate by its SHA-256 fingerprint",
        params: ZTangramIdParam,
        body: ZDeviceCertificateInput,
        response: { 200: ZDeviceCertificate },
      },
    },
    (req) => registerDeviceCertificate({ db, bus, log: req.log }, principalOf(req), req.params.tangramId, req.body.fingerprint),
  );
  app.delete(
    '/devices/:tangramId/certificate',
    {
      preHandler: [requireVendor, requireSession],
      schema: {
        tags,
        summary: "Revoke the device's MQTT client certificate",
        params: ZTangramIdParam,
        response: { 204: z.null().describe('no content') },
      },
    },
    async (req, reply) => {
      await revokeDeviceCertificate({ db, bus, log: req.log }, principalOf(req), req.params.tangramId);
      return reply.status(204).send(null);
    },
  );
}
