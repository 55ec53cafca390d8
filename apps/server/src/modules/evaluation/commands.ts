/**
 * Device commands of rules (`command` action; docs/protocol.md "Commands"): `{ name, params }` published on
 * `devices/{id}/commands/{reqId}` through the app's message bus, the same round trip as remote control
 * (device-control/command-channel.ts) but fire and forget — the evaluation does not wait. The outcome (ok, device
 * error, timeout, offline) lands in the device's command log (`device_commands`) with `rule: <name>` as the sender.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { TMessageBus } from '../../core/context.js';
import type { Db } from '../../db/client.js';
import { deviceCommands } from '../../db/schema.js';
import { exchangeCommand, type TCommand, type TCommandExchange } from '../device-control/command-channel.js';
import type { TIngestDevice } from '../ingest/directory.js';

/** The sender shown in the command log for a rule's command. */
export function ruleSender(ruleName: string): string {
  return `rule: ${ruleName}`;
}

/** Sends rule commands and logs their outcome; {@link RuleCommands.settle} waits for those in flight. */
export class RuleCommands {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly deps: { db: Db; bus: TMessageBus; log: Logger; timeoutMs: number }) {}

  /**
   * Sends `command` to `device` on behalf of rule `ruleName`, waits for the reply (at most `timeoutMs`, default the
   * server's command timeout) and logs the outcome in the device's command log.
   * @throws AppError 503 when the broker is down; a failure to write the log is thrown too.
   */
  async exchange(
    device: Pick<TIngestDevice, 'id' | 'tenantId' | 'tangramId'>,
    ruleName: string,
    command: TCommand,
    timeoutMs?: number,
  ): Promise<TCommandExchange> {
    const { db, bus } = this.deps;
    const reqId = randomUUID();
    const sentAt = Date.now();
    const exchange = await exchangeCommand(bus, device.tangramId, reqId, command, timeoutMs ?? this.deps.timeoutMs);
    await db.insert(deviceCommands).values({
      reqId,
      tenantId: device.tenantId,
      deviceId: device.id,
      accountId: null,
      accountEmail: ruleSender(ruleName),
      name: command.name,
      params: command.params,
      outcome: exchange.outcome,
      error: exchange.outcome === 'device_error' ? exchange.error : null,
      latencyMs: 'latencyMs' in exchange ? exchange.latencyMs : null,
      createdAt: sentAt,
    });
    return exchange;
  }

  /** Sends `command` to `device` on behalf of rule `ruleName` without waiting (the outcome is logged); never throws. */
  send(device: TIngestDevice, ruleName: string, command: TCommand): void {
    const run = this.exchange(device, ruleName, command).then(
      () => undefined,
      (err: unknown) =>
        this.deps.log.warn({ err, deviceId: device.id, command: command.name }, 'rule engine: command not sent or not logged'),
    );
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  /** Waits for commands in flight, at most `maxMs`. */
  async settle(maxMs: number): Promise<void> {
    if (this.inFlight.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((r) => {
      timer = setTimeout(r, maxMs);
    });
    await Promise.race([Promise.all(this.inFlight), cap]);
    clearTimeout(timer);
  }
}
