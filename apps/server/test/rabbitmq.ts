/**
 * A private RabbitMQ node for tests and benchmarks (docs/decisions/scale-out.md): Debian's rabbitmq-server 3.10 with
 * the MQTT, management and HTTP-auth plugins, on free ports, with its own data directory, so it never touches the
 * machine's own node (5672/1883/25672). Devices log in through the server's HTTP auth backend
 * (modules/ingest/rabbitmq-auth.ts); replicas with the internal administrator.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../src/modules/mail/smtp-sink.fixture.js';
import { tcpProbe } from './until.js';

/** The server binary (the /usr/sbin wrapper switches to the rabbitmq user, which cannot write our directory). */
const RABBITMQ_SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server';
/** How long a node may take to start (measured ~12 s on 2 cores), in milliseconds. */
const START_TIMEOUT_MS = 90_000;

/** A private node (started by {@link startRabbitNode}, or by `start()` of {@link createRabbitNode}'s answer). */
export interface TRabbitNode {
  /** The MQTT listener's port on 127.0.0.1. */
  mqttPort: number;
  /** The MQTT listener devices use (MQTT 3.1.1), without credentials. */
  mqttUrl: string;
  /** The same listener with the administrator's credentials: a replica's MQTT_URL (its control connection). */
  replicaMqttUrl: string;
  /** AMQP 0-9-1 with the internal administrator: what replicas drain the ingest queue with. */
  amqpUrl: string;
  /** The management API with the administrator's credentials in the userinfo (closing connections). */
  managementUrl: string;
  /** Kills the Erlang VM with SIGKILL (a crash: nothing flushed but what RabbitMQ already synced). */
  kill(): Promise<void>;
  /** Starts the node (again, after {@link TRabbitNode.kill}: same ports and data directory). */
  restart(): Promise<void>;
  /** The Erlang VM's pid (the process whose CPU is RabbitMQ's), or 0 when it is not running. */
  pid(): number;
  /** Stops the node and removes its directory. */
  stop(): Promise<void>;
}

/** What the node's devices are authenticated against. */
export interface TRabbitNodeOptions {
  /**
   * Base URL of the server's HTTP auth backend including its credentials, e.g.
   * `http://rabbitmq:<secret>@127.0.0.1:8080/internal/broker-auth/rabbitmq`; unset: internal users only.
   */
  authHttpBase?: string;
  /** Administrator credentials (internal backend). */
  adminUser?: string;
  adminPassword?: string;
}

const accepts = async (port: number): Promise<boolean> => (await tcpProbe(port)) === 'accepted';

/** Pids of the Erlang VMs started with RABBITMQ_NODENAME=`nodeName` (the start script's pid is only a shell). */
function vmPids(nodeName: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const env = readFileSync(`/proc/${entry}/environ`, 'latin1');
      const cmd = readFileSync(`/proc/${entry}/comm`, 'latin1').trim();
      if (cmd.startsWith('beam') && env.split('\0').includes(`RABBITMQ_NODENAME=${nodeName}`)) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/**
 * Starts a private node and waits until its AMQP, MQTT and management listeners accept connections.
 * @throws when rabbitmq-server is not installed or the node does not come up within 90 s (its log is in the error).
 */
export async function startRabbitNode(opts: TRabbitNodeOptions = {}): Promise<TRabbitNode> {
  const node = await createRabbitNode(opts);
  await node.restart();
  return node;
}

/** Prepares a private node (its directory, configuration and free ports) without starting it. */
export async function createRabbitNode(opts: TRabbitNodeOptions = {}): Promise<TRabbitNode> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-rabbitmq-'));
  mkdirSync(join(dir, 'mnesia'));
  mkdirSync(join(dir, 'log'));
  const [amqpPort, mqttPort, mgmtPort, distPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const user = opts.adminUser ?? 'tessera';
  const password = opts.adminPassword ?? 'tessera-test-admin';
  const nodeName = `tessera-${process.pid}-${amqpPort}@localhost`;
  const lines = [
    `listeners.tcp.default = 127.0.0.1:${amqpPort}`,
    `mqtt.listeners.tcp.default = 127.0.0.1:${mqttPort}`,
    'mqtt.allow_anonymous = false',
    `management.tcp.port = ${mgmtPort}`,
    'management.tcp.ip = 127.0.0.1',
    'loopback_users = none',
    `default_user = ${user}`,
    `default_pass = ${password}`,
    // The management API lists a connection after its first statistics event: revocations find it within a second.
    'collect_statistics_interval = 1000',
    // Tests and benches fill the disk of a shared machine with other work; don't block publishers at 50 MB free.
    'disk_free_limit.absolute = 10MB',
  ];
  const plugins = ['rabbitmq_mqtt', 'rabbitmq_management'];
  if (opts.authHttpBase) {
    plugins.push('rabbitmq_auth_backend_http');
    lines.push(
      'auth_backends.1 = internal',
      'auth_backends.2 = http',
      'auth_http.http_method = post',
      ...['user', 'vhost', 'resource', 'topic'].map((p) => `auth_http.${p}_path = ${opts.authHttpBase}/${p}`),
    );
  }
  writeFileSync(join(dir, 'rabbitmq.conf'), `${lines.join('\n')}\n`);
  writeFileSync(join(dir, 'enabled_plugins'), `[${plugins.join(',')}].\n`);
  const env = {
    ...process.env,
    HOME: dir,
    RABBITMQ_NODENAME: nodeName,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_CONF_ENV_FILE: '/dev/null',
    ERL_EPMD_ADDRESS: '127.0.0.1',
  };
  let child: ChildProcess | null = null;

  async function launch(): Promise<void> {
    child = spawn(RABBITMQ_SERVER, [], { env, stdio: 'ignore', detached: true });
    child.unref();
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if ((await accepts(amqpPort)) && (await accepts(mqttPort)) && (await accepts(mgmtPort))) return;
      if (child.exitCode !== null || Date.now() > deadline) {
        let log = '';
        try {
          log = readFileSync(join(dir, 'log', `${nodeName}.log`), 'utf8').slice(-2000);
        } catch {
          // no log yet
        }
        throw new Error(`rabbitmq node ${nodeName} did not start (exit ${String(child.exitCode)}): ${log}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  async function killVm(): Promise<void> {
    for (const pid of vmPids(nodeName)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    const deadline = Date.now() + 10_000;
    while (vmPids(nodeName).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // epmd forgets the name when the VM's connection to it closes; wait for the ports to be free again.
    while ((await accepts(amqpPort)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  }

  // A test process that ends without stop() (a failed beforeAll, an interrupted run) takes its node along.
  process.once('exit', () => {
    for (const pid of vmPids(nodeName)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  });
  const cred = `${encodeURIComponent(user)}:${encodeURIComponent(password)}`;
  return {
    mqttPort,
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    replicaMqttUrl: `mqtt://${cred}@127.0.0.1:${mqttPort}`,
    amqpUrl: `amqp://${cred}@127.0.0.1:${amqpPort}/`,
    managementUrl: `http://${cred}@127.0.0.1:${mgmtPort}`,
    kill: killVm,
    restart: launch,
    pid: () => vmPids(nodeName)[0] ?? 0,
    async stop() {
      await killVm();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
