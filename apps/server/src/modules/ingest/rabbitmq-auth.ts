/**
 * RabbitMQ's HTTP authentication backend (rabbitmq_auth_backend_http, docs/decisions/scale-out.md "Device logins"):
 * with the queue engine, devices log in to RabbitMQ's MQTT listener with the same credentials and topic ACL as on
 * the embedded broker, and RabbitMQ asks this server. Four form-encoded POSTs, each answered `allow` or `deny`:
 * `user` (username, password, client_id), `vhost`, `resource` (queue/exchange, configure/write/read) and `topic`
 * (routing_key, write/read). The replicas' own user is RabbitMQ's internal one (auth_backends.1 = internal), so
 * only devices reach this code. RabbitMQ sends the backend's credentials as HTTP Basic from the URL's userinfo
 * (`http://rabbitmq:<BROKER_AUTH_SECRET>@replica/internal/broker-auth/rabbitmq/user`).
 */
import formbody from '@fastify/formbody';
import { isDeviceClientId } from '@tessera/contracts';
import { z } from 'zod';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { digestEquals, sha256 } from '../../core/crypto.js';
import { canDevicePublish, canDeviceSubscribe } from './acl.js';
import { DeviceDirectory } from './directory.js';

/** The Basic-auth user RabbitMQ presents (the password is BROKER_AUTH_SECRET). */
export const BROKER_AUTH_USER = 'rabbitmq';
/** Where the four endpoints are mounted. */
export const RABBITMQ_AUTH_PREFIX = '/internal/broker-auth/rabbitmq';
/** The only exchange the MQTT plugin uses (mqtt.exchange default). */
const MQTT_EXCHANGE = 'amq.topic';

/**
 * An MQTT topic or filter from RabbitMQ's routing key: the MQTT plugin swaps `/` and `.`, and `+` becomes `*`
 * (RabbitMQ MQTT guide, "Topic routing"). `#` stays.
 */
export function topicOfRoutingKey(routingKey: string): string {
  let out = '';
  for (const ch of routingKey) out += ch === '.' ? '/' : ch === '/' ? '.' : ch === '*' ? '+' : ch;
  return out;
}

/** The queues the MQTT plugin declares for a client's subscriptions (one per QoS). */
function isOwnSubscriptionQueue(name: string, clientId: string): boolean {
  return name === `mqtt-subscription-${clientId}qos0` || name === `mqtt-subscription-${clientId}qos1`;
}

/** A `resource` request: may `username` (connected as `clientId`) use exchange/queue `name` with `permission`? */
export function deviceResourceAllowed(username: string, clientId: string, resource: string, name: string, permission: string): boolean {
  if (!isDeviceClientId(username, clientId)) return false;
  // Publishing writes the exchange; binding a subscription queue reads it. Nothing else of it.
  if (resource === 'exchange') return name === MQTT_EXCHANGE && (permission === 'write' || permission === 'read');
  // Its own subscription queues: declare (configure), bind (write), consume (read). Never the ingest queue.
  if (resource === 'queue') return isOwnSubscriptionQueue(name, clientId);
  return false;
}

/** A `topic` request: the device topic ACL of the embedded broker (acl.ts) on the routing key's MQTT topic. */
export function deviceTopicAllowed(username: string, exchange: string, permission: string, routingKey: string): boolean {
  if (exchange !== MQTT_EXCHANGE) return false;
  const topic = topicOfRoutingKey(routingKey);
  if (permission === 'write') return canDevicePublish(username, topic);
  if (permission === 'read') return canDeviceSubscribe(username, topic);
  return false;
}

const ZField = z.string().max(1024);
const ZUser = z.object({ username: ZField, password: ZField, client_id: ZField.optional() });
const ZVhost = z.object({ username: ZField, vhost: ZField, client_id: ZField.optional() });
const ZResource = z.object({
  username: ZField,
  vhost: ZField,
  resource: ZField,
  name: ZField,
  permission: ZField,
  client_id: ZField.optional(),
});
const ZTopic = z.object({
  username: ZField,
  vhost: ZField,
  name: ZField,
  permission: ZField,
  routing_key: ZField,
  'variable_map.client_id': ZField.optional(),
});

/** What the endpoints need. */
export interface TRabbitAuthDeps {
  directory: DeviceDirectory;
  /** BROKER_AUTH_SECRET: the Basic-auth password RabbitMQ must present. */
  secret: string;
  /** The vhost devices live in (the path of AMQP_URL, `/` by default). */
  vhost: string;
}

function basicPassword(header: string | undefined): string | null {
  if (!header?.startsWith('Basic ')) return null;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && decoded.slice(0, colon) === BROKER_AUTH_USER ? decoded.slice(colon + 1) : null;
}

/**
 * Registers `POST {RABBITMQ_AUTH_PREFIX}/user|vhost|resource|topic` on `app` (hidden from /openapi.json). A request
 * without the Basic credentials gets 401; a malformed one 400; every verdict is 200 `allow` or `deny`. A database
 * failure while checking a password answers 503, which RabbitMQ treats as a refusal (the device retries).
 */
export async function registerRabbitAuth(app: TApp, deps: TRabbitAuthDeps): Promise<void> {
  await app.register(
    async (scope) => {
      await scope.register(formbody, { bodyLimit: 8192 });
      scope.addHook('onRequest', async (req, reply) => {
        const password = basicPassword(req.headers.authorization);
        if (password === null || !digestEquals(sha256(password), sha256(deps.secret))) {
          await reply.code(401).header('www-authenticate', 'Basic realm="broker-auth"').send('deny');
        }
      });
      const verdict = (ok: boolean) => (ok ? 'allow' : 'deny');
      const hidden = { schema: { hide: true } };

      scope.post('/user', hidden, async (req, reply) => {
        const body = ZUser.safeParse(req.body);
        if (!body.success) return reply.code(400).send('deny');
        const { username, password, client_id: clientId } = body.data;
        if (clientId !== undefined && !isDeviceClientId(username, clientId)) return 'deny';
        const device = await deps.directory.device(username);
        return verdict(!!device && digestEquals(sha256(password), device.secretHash));
      });
      scope.post('/vhost', hidden, async (req, reply) => {
        const body = ZVhost.safeParse(req.body);
        if (!body.success) return reply.code(400).send('deny');
        return verdict(body.data.vhost === deps.vhost && (await deps.directory.device(body.data.username)) !== null);
      });
      scope.post('/resource', hidden, async (req, reply) => {
        const body = ZResource.safeParse(req.body);
        if (!body.success) return reply.code(400).send('deny');
        const b = body.data;
        return verdict(b.vhost === deps.vhost && deviceResourceAllowed(b.username, b.client_id ?? '', b.resource, b.name, b.permission));
      });
      scope.post('/topic', hidden, async (req, reply) => {
        const body = ZTopic.safeParse(req.body);
        if (!body.success) return reply.code(400).send('deny');
        const b = body.data;
        const clientOk = isDeviceClientId(b.username, b['variable_map.client_id'] ?? '');
        return verdict(clientOk && b.vhost === deps.vhost && deviceTopicAllowed(b.username, b.name, b.permission, b.routing_key));
      });
    },
    { prefix: RABBITMQ_AUTH_PREFIX },
  );
}

/**
 * The module's routes (app/modules.ts): RabbitMQ's auth backend when BROKER_AUTH_SECRET is set, else nothing. The
 * vhost devices may use is AMQP_URL's (default `/`).
 */
export async function brokerAuthRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const secret = ctx.config.brokerAuthSecret;
  if (!secret) return;
  const vhostPath = ctx.config.amqpUrl ? decodeURIComponent(new URL(ctx.config.amqpUrl).pathname.slice(1)) : '';
  // No cache: a changed secret is refused at the very next login (device-revocation.ts closes the open ones).
  await registerRabbitAuth(app, { directory: new DeviceDirectory(ctx.db, 0), secret, vhost: vhostPath || '/' });
}
