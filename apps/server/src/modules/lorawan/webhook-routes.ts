/**
 * The uplink webhook network servers POST to (docs/protocol.md "LoRaWAN network servers"):
 * `POST /lorawan/v1/{integrationId}/chirpstack?event=up` (ChirpStack v4's HTTP integration, JSON encoding) and
 * `POST /lorawan/v1/{integrationId}/tts` (The Things Stack v3's webhook, JSON format), the integration's secret in
 * the `x-tessera-secret` header. 200 `{stored}` only once the points are committed; 202 `{stored: 0, refused, detail}`
 * when the request was fine but its uplink was not stored (unknown DevEUI, no decoded payload, a value ingest refuses);
 * 204 for events that carry no uplink; 400, 401, 404, 413, 429, 503 as receive-uplink.ts says. The route itself is
 * webhook-route.ts's; this module answers it, on the main port and for the device HTTP port's thread.
 */
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { ThrottledLog } from '../../core/throttled-log.js';
import { lorawanRuntime } from './lorawan-cache.js';
import { LorawanMqttSubscriptions } from './mqtt-subscriptions.js';
import { receiveUplink, type TUplinkRequest } from './receive-uplink.js';
import { registerLorawanWebhookRoute, type TUplinkHandler } from './webhook-route.js';

/** Each server's webhook handler, by its context: the device HTTP port's thread hands requests to it (app/server.ts). */
const uplinkHandlers = new WeakMap<TAppContext, TUplinkHandler>();

/** The handler answering the webhook requests of the server whose app was built on `ctx`, or null before it was. */
export function lorawanUplinkHandler(ctx: TAppContext): TUplinkHandler | null {
  return uplinkHandlers.get(ctx) ?? null;
}

/** Registers the uplink webhook (prefix `''`). */
export async function lorawanWebhookRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const log = new ThrottledLog(ctx.log);
  const runtime = lorawanRuntime(ctx, (stop) => app.addHook('onClose', stop));
  const { directory, uplinkLog } = runtime;
  // Integrations over MQTT: consumed from when the server listens (their client ids name its port) until it stops.
  const subscriptions = new LorawanMqttSubscriptions({
    db: ctx.db,
    runtime,
    bus: ctx.bus,
    log: ctx.log,
    throttled: log,
    shareGroup: ctx.config.mqttShareGroup,
    secretsKey: ctx.config.secretsKey,
  });
  runtime.onChange((change) => void subscriptions.changed(change));
  app.addHook('onListen', async () => {
    const address = app.server.address();
    await subscriptions.start(typeof address === 'object' && address ? address.port : ctx.config.port);
  });
  app.addHook('preClose', () => subscriptions.stopAccepting());
  app.addHook('onClose', () => subscriptions.close());
  const deps = { directory, uplinkLog, bus: ctx.bus, log };
  const handle = (req: TUplinkRequest) => receiveUplink(deps, req);
  registerLorawanWebhookRoute(app, handle);
  // The same requests on the device HTTP port, when it is open (DEVICE_HTTP_PORT): parsed on its thread, answered here.
  uplinkHandlers.set(ctx, handle);
}
