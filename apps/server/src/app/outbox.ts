/**
 * The outbox stage, started in one place (docs/ARCHITECTURE.md "The data path as stages"): one worker per channel —
 * mail (when SMTP_URL is set), LINE, Web Push, download packaging and webhooks — each the shared outbox loop over its own table
 * (modules/outbox/outbox-loop.ts). Modules that queue rows nudge a channel through `ctx.outbox` (core/context.ts);
 * nothing is shared through module-level state, so two servers in one process keep to their own workers.
 */
import type { Logger } from 'pino';
import type { TBlobStore } from '../core/blob-store.js';
import type { TConfig } from '../core/config.js';
import type { TOutbox, TOutboxChannel } from '../core/context.js';
import { secretBoxFor } from '../core/secret-box.js';
import type { Db } from '../db/client.js';
import { startDownloadWorker } from '../modules/downloads/worker.js';
import { startLinePushWorker } from '../modules/line/push-worker.js';
import { createLineRuntime } from '../modules/line/runtime.js';
import { startOutboxWorker } from '../modules/mail/outbox-worker.js';
import type { TOutboxWorker } from '../modules/outbox/outbox-loop.js';
import { loadVapid } from '../modules/web-push/vapid.js';
import { startWebPushWorker } from '../modules/web-push/worker.js';
import { startWebhookWorker } from '../modules/webhooks/worker.js';
import type pg from 'pg';

/** The outbox seam plus starting and stopping its workers. */
export interface TOutboxStage extends TOutbox {
  /** Starts every channel's worker (once the server is up). */
  start(): Promise<void>;
  /** Stops the workers, each after its pass in flight. */
  stop(): Promise<void>;
}

/** The outbox stage over `db`; nudges before `start()` are no-ops (the first pass sends what is due). */
export function createOutboxStage(deps: { db: Db; log: Logger; config: TConfig; blobs: TBlobStore; pool?: pg.Pool }): TOutboxStage {
  const { db, log, config, blobs, pool } = deps;
  const workers = new Map<TOutboxChannel, TOutboxWorker>();
  return {
    nudge: (channel) => workers.get(channel)?.nudge(),
    async start() {
      if (config.smtpUrl) workers.set('mail', startOutboxWorker({ db, log, smtpUrl: config.smtpUrl, from: config.mailFrom }));
      workers.set('line', startLinePushWorker(await createLineRuntime({ db, log, config })));
      const vapid = await loadVapid(db, await secretBoxFor(db, config.secretsKey), config);
      workers.set('web-push', startWebPushWorker({ db, log, vapid }));
      workers.set('downloads', startDownloadWorker({ db, log, blobs, pool }));
      workers.set('webhooks', startWebhookWorker({ db, log, secretsKey: config.secretsKey, allowPrivate: config.webhookPrivateNetworks }));
    },
    async stop() {
      await Promise.all([...workers.values()].map((w) => w.stop()));
      workers.clear();
    },
  };
}
