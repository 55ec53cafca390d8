/**
 * One command round trip on the device protocol (docs/protocol.md "Commands"): subscribe to
 * `devices/{id}/commands/{reqId}/reply`, publish `{ name, params }` on `devices/{id}/commands/{reqId}` (QoS 1, not
 * retained), wait at most `timeoutMs` for the first reply, unsubscribe. Works on the embedded and the external
 * broker alike through the app's message bus. A reply can only match its own device and request id: the topic
 * carries both, the request id is a random UUID, and the broker's ACL keeps devices off other devices' topics.
 */
import { ErrorCode, topics, ZDeviceCommandReply } from '@tessera/contracts';
import type { TMessageBus } from '../../core/context.js';
import { AppError } from '../../core/errors.js';

/** A command as sent to the device. */
export interface TCommand {
  name: string;
  params: Record<string, unknown>;
}

/** How a round trip ended. `latencyMs` runs from the publish to the reply. */
export type TCommandExchange =
  | { outcome: 'ok'; result: unknown; latencyMs: number }
  | { outcome: 'device_error'; error: string; latencyMs: number }
  | { outcome: 'timeout' }
  | { outcome: 'offline' };

const brokerUnavailable = () => new AppError(503, ErrorCode.BrokerUnavailable, 'the MQTT broker is not available; try again shortly');

/** The reply's answer, or the device-error text of an unreadable reply. */
function readReply(payload: Buffer): { ok: true; result: unknown } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return { ok: false, error: 'the reply is not JSON' };
  }
  const reply = ZDeviceCommandReply.safeParse(json);
  if (!reply.success) return { ok: false, error: 'the reply is not { ok, result | error }' };
  if (!reply.data.ok) return { ok: false, error: reply.data.error ?? 'the device refused the command' };
  return { ok: true, result: reply.data.result ?? null };
}

/**
 * Sends `command` to device `tangramId` as request `reqId` and waits for its reply.
 * Answers `offline` without publishing when the broker knows the device is not listening (embedded mode), here or —
 * connected by access token — on another replica.
 * @throws AppError 503 BROKER_UNAVAILABLE when the broker (or the connection to it) is down or refuses the
 * subscription or the publish.
 */
export async function exchangeCommand(
  bus: TMessageBus,
  tangramId: string,
  reqId: string,
  command: TCommand,
  timeoutMs: number,
): Promise<TCommandExchange> {
  if (!bus.isUp()) throw brokerUnavailable();
  // A device connected by access token to another replica is reached through it (ingest/thingsboard-downlink.ts).
  if (bus.isDeviceListening(tangramId) === false && !(await bus.isDeviceListeningElsewhere(tangramId))) return { outcome: 'offline' };

  let onReply: (payload: Buffer) => void = () => undefined;
  const replied = new Promise<Buffer>((resolve) => {
    onReply = resolve;
  });
  // Subscribed before publishing, so even an instant reply is seen; the first reply wins.
  const unsubscribe = await bus
    .subscribe(topics.commandReply(tangramId, reqId), (payload) => onReply(payload))
    .catch(() => {
      throw brokerUnavailable();
    });
  let timer: NodeJS.Timeout | undefined;
  try {
    // The deadline covers the publish too: a client that lost its broker queues publishes instead of failing.
    const deadline = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    });
    const started = performance.now();
    const sent = bus.publish(topics.command(tangramId, reqId), JSON.stringify(command), { qos: 1, retain: false }).catch(() => {
      throw brokerUnavailable();
    });
    const payload = await Promise.race([sent.then(() => replied), deadline]);
    if (payload === null) return { outcome: 'timeout' };
    const latencyMs = Math.round(performance.now() - started);
    const reply = readReply(payload);
    return reply.ok ? { outcome: 'ok', result: reply.result, latencyMs } : { outcome: 'device_error', error: reply.error, latencyMs };
  } finally {
    clearTimeout(timer);
    await unsubscribe().catch(() => undefined);
  }
}
