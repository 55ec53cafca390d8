/**
 * What the LINE routes, webhook and push worker share: the database, the secret box that opens the channels'
 * secrets, the API base (LINE_API_BASE), the quota cache, and the console's public base URL when configured.
 */
import type { Logger } from 'pino';
import type { TAppContext } from '../../core/context.js';
import { secretBoxFor, type TSecretBox } from '../../core/secret-box.js';
import type { Db } from '../../db/client.js';
import { createLineClient, type TLineClient } from './client.js';
import type { TLineChannel } from './official-account.js';
import { LineQuotaGate } from './quota.js';

/** The LINE module's shared dependencies. */
export interface TLineRuntime {
  db: Db;
  log: Logger;
  box: TSecretBox;
  quota: LineQuotaGate;
  /** PUBLIC_URL when set (where people reach the console). */
  publicUrl?: string;
  /** A client speaking for `channel` (its access token) to LINE_API_BASE. */
  client(channel: TLineChannel): TLineClient;
}

/** Builds the runtime over `ctx` (loads or creates the secrets key). */
export async function createLineRuntime(ctx: Pick<TAppContext, 'db' | 'log' | 'config'>): Promise<TLineRuntime> {
  const box = await secretBoxFor(ctx.db, ctx.config.secretsKey);
  return {
    db: ctx.db,
    log: ctx.log,
    box,
    quota: new LineQuotaGate(),
    publicUrl: ctx.config.publicUrl,
    client: (channel) => createLineClient(ctx.config.lineApiBase, channel.accessToken),
  };
}
