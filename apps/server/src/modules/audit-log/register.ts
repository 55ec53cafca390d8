/**
 * The audit log on an app (docs/decisions/audit-log.md): the recording hooks on every mutating route (unless
 * AUDIT_LOG is off, for a benchmark's baseline), and the retention purge, started when the app is ready and stopped
 * when it closes.
 */
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { registerAuditHooks } from './hooks.js';
import { startAuditPurge } from './purge-loop.js';

/** Registers the audit log on `app`; call before the modules register their routes. */
export function registerAuditLog(app: TApp, ctx: TAppContext): void {
  if (ctx.config.auditLog) registerAuditHooks(app, ctx.db, ctx.log);
  let stopPurge: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    stopPurge = startAuditPurge(ctx.db, ctx.config.auditRetentionDays, ctx.log);
  });
  app.addHook('onClose', async () => {
    await stopPurge?.();
  });
}
