/**
 * A private RabbitMQ 3.10 node (Debian's package, the rabbitmq_mqtt plugin) on free loopback ports with its own
 * config, Mnesia and log directories: `/usr/lib/rabbitmq/bin/rabbitmq-server` run directly (the /usr/sbin wrapper
 * switches user), with its own node name and distribution port so it never meets the machine's own node. The MQTT
 * plugin publishes to `amq.topic` with `/` → `.` in the routing key; QoS 1 publishes are persistent and their PUBACK
 * waits for the queues' confirm (RabbitMQ MQTT plugin docs).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TEngine } from './engine.js';
import { findPid, freePort, waitForExit, waitForPorts } from './process-tools.js';

const RABBITMQ_SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server';
/** The node boots in ~12 s on the shared machine; a restart replays its message store too. */
const BOOT_TIMEOUT_MS = 90_000;
const USER = 'bench';

/** A RabbitMQ engine whose consumer drains a durable queue of `queueType` over AMQP 0-9-1. */
export async function rabbitmqEngine(queueType: 'classic' | 'quorum'): Promise<TEngine> {
  const dir = await mkdtemp(join(tmpdir(), 'engines-rabbitmq-'));
  await mkdir(join(dir, 'mnesia'));
  await mkdir(join(dir, 'log'));
  const [amqpPort, mqttPort, distPort] = [await freePort(), await freePort(), await freePort()];
  const nodeName = `engines${process.pid}${queueType}@localhost`;
  await writeFile(
    join(dir, 'rabbitmq.conf'),
    [
      `listeners.tcp.default = 127.0.0.1:${amqpPort}`,
      `mqtt.listeners.tcp.default = 127.0.0.1:${mqttPort}`,
      'loopback_users = none',
      `default_user = ${USER}`,
      `default_pass = ${USER}`,
      '',
    ].join('\n'),
  );
  await writeFile(join(dir, 'enabled_plugins'), '[rabbitmq_mqtt].\n');
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
  let script: ChildProcess | undefined;
  let alive = false;
  let beamPid = 0;
  /** Kills the script's whole process group (the shell, beam.smp and its port programs). */
  const killGroup = () => {
    if (script?.pid) {
      try {
        process.kill(-script.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  return {
    name: `RabbitMQ MQTT → durable ${queueType} queue, AMQP consumer`,
    mqttPort,
    deviceLogin: { username: USER, password: USER },
    consumer: { kind: 'amqp', url: `amqp://${USER}:${USER}@127.0.0.1:${amqpPort}`, queueType },
    async start() {
      const proc = spawn(RABBITMQ_SERVER, [], { env, stdio: 'ignore', detached: true });
      script = proc;
      alive = true;
      proc.once('exit', () => {
        if (script === proc) alive = false;
      });
      await waitForPorts([amqpPort, mqttPort], BOOT_TIMEOUT_MS, () => alive);
      // The node name is not on beam.smp's command line (the prelaunch reads it from the environment); its home is.
      beamPid = findPid('beam.smp', dir) ?? 0;
      if (!beamPid) throw new Error(`no beam.smp process with home ${dir}`);
    },
    pid: () => beamPid,
    async kill9() {
      if (beamPid) process.kill(beamPid, 'SIGKILL');
      killGroup();
      if (beamPid) await waitForExit(beamPid);
    },
    async dispose() {
      killGroup();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
