/**
 * Telling accounts that what they may see changed (docs/protocol.md `live/accounts/{id}/access`,
 * docs/decisions/authorisation.md): an answered or revoked request, a role whose members, devices, machines or
 * permissions changed. The console refetches on it, and every replica closes that account's browser connections still
 * watching a device it lost (ingest/messaging.ts).
 */
import { topics, type TLiveAccessMessage } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { TMessageBus } from '../../core/context.js';

/**
 * Publishes an access change for each of `accountIds` (duplicates once). A publish that fails is logged, never thrown:
 * the change itself is already stored, and the console refetches on its own.
 */
export async function announceAccessChange(bus: TMessageBus, log: Logger, accountIds: Iterable<number>): Promise<void> {
  const changedAt = Date.now();
  await Promise.all(
    [...new Set(accountIds)].map((accountId) => {
      const message: TLiveAccessMessage = { account_id: accountId, changed_at: changedAt };
      return bus
        .publish(topics.liveAccess(accountId), JSON.stringify(message))
        .catch((err: unknown) => log.warn({ err, accountId }, 'access change not announced on the live channel'));
    }),
  );
}
