/**
 * The assistant's feature gate (spec §1 "an AI assistant module available only when feature code 13:25 is granted";
 * docs/decisions/ai.md "Assistant"): every assistant route answers only accounts whose `fea` grants 13:25 (or its
 * section 13, or `*`), whatever their level.
 */
import { ASSISTANT_FEATURE, hasFeature } from '@tessera/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden } from '../../core/errors.js';
import { principalOf, requireAuth } from '../../core/principal.js';

/** preHandler: 401 without a login; 403 when the account's feature codes do not grant 13:25. */
export async function requireAssistant(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await requireAuth(request, reply);
  if (!hasFeature(principalOf(request).fea, ASSISTANT_FEATURE)) throw forbidden('the AI assistant (13:25) is not granted to this account');
}
