/**
 * Helpers of the rule engine's integration tests: a real server whose engine clock the test moves and whose
 * notifications are recorded (then handed to the real notifier), a device on MQTT, and the stored alerts.
 */
import { asc, eq } from 'drizzle-orm';
import { paths, topics, type TProject, type TRuleProgram, type TRuleTypeUpdate } from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import type { Database } from '../../db/client.js';
import { alerts, projectBlocklyPrograms } from '../../db/schema.js';
import { startTestServer, type TTestServer } from '../../../test/helpers.js';
import { connectMqtt } from '../ingest/ingest-test-kit.js';
import type { TRuleNotification, TRuleNotifier } from '../notifications/types.js';

/** A test server with a movable rule clock and the notifications its engine handed over. */
export interface TRuleTestServer extends TTestServer {
  notifications: TRuleNotification[];
  /** The rule engine's clock (ms); move it with `advance`. */
  clock: { now: number; advance(ms: number): void };
  /** Waits until the engine has evaluated everything committed so far. */
  settle(): Promise<void>;
}

/** Starts a server (on `database`, else a fresh one) whose engine uses a test clock and records notifications. */
export async function startRuleServer(database?: Database): Promise<TRuleTestServer> {
  const clock = {
    now: Date.now(),
    advance(ms: number) {
      clock.now += ms;
    },
  };
  const notifications: TRuleNotification[] = [];
  const record = (real: TRuleNotifier): TRuleNotifier => ({
    async notify(n) {
      notifications.push(n);
      await real.notify(n);
    },
  });
  const server = await startTestServer({}, database, { ruleClock: () => clock.now, ruleNotifier: record });
  return { ...server, notifications, clock, settle: () => server.rules.idle() };
}

/** Connects as device `tangramId`. */
export function connectDevice(server: { mqttUrl: string }, device: { tangramId: string; secret: string }): Promise<MqttClient> {
  return connectMqtt(server.mqttUrl, device.tangramId, device.secret);
}

/** Publishes telemetry points `[key, ts, v1]` at QoS 1 (resolves once stored) and waits for the engine. */
export async function publishPoints(server: TRuleTestServer, client: MqttClient, tangramId: string, points: [string, number, number][]) {
  await client.publishAsync(topics.telemetry(tangramId), JSON.stringify(points.map(([key, ts, v]) => ({ key, ts, vs: [v] }))), { qos: 1 });
  await server.settle();
}

/** Publishes a status word at QoS 1 and waits for the engine. */
export async function publishStatus(server: TRuleTestServer, client: MqttClient, tangramId: string, ts: number, value: number) {
  await client.publishAsync(topics.status(tangramId), JSON.stringify({ ts, value }), { qos: 1 });
  await server.settle();
}

/** The alerts of a device, oldest first. */
export function alertsOf(server: TTestServer, deviceId: number) {
  return server.ctx.db.select().from(alerts).where(eq(alerts.deviceId, deviceId)).orderBy(asc(alerts.id));
}

/** PUT ruleType through the API; answers the project. */
export async function setRuleType(server: TTestServer, token: string, projectId: number, body: TRuleTypeUpdate): Promise<TProject> {
  const res = await server.api<TProject>('PUT', paths.projectRuleType(projectId), { token, body });
  if (res.status !== 200) throw new Error(`ruleType answered ${res.status}`);
  return res.body;
}

/**
 * Stores a compiled program for `projectId` as the blocklys routes would after an ok compile (the tree is what the
 * compiler makes; building it from Blockly JSON is the compiler's own tests' business). Answers its id.
 */
export async function insertProgram(server: TTestServer, projectId: number, name: string, program: TRuleProgram): Promise<number> {
  const now = Date.now();
  const [row] = await server.ctx.db
    .insert(projectBlocklyPrograms)
    .values({ projectId, name, enabled: true, workspace: {}, program, errors: [], compiledAt: now, createdAt: now, updatedAt: now })
    .returning({ id: projectBlocklyPrograms.id });
  server.ctx.ruleChanges.projectChanged(projectId);
  return row.id;
}
