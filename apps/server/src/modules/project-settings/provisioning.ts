/**
 * What a device needs to connect (project system tab; docs/protocol.md), read-only. The broker address is
 * PUBLIC_MQTT_URL when set (a deployment behind a load balancer or TLS terminator knows its public name);
 * otherwise the host the console was reached on, with the embedded broker's MQTT_PORT and plain MQTT.
 */
import { topics, type TProvisioning } from '@tessera/contracts';
import type { TConfig } from '../../core/config.js';

const TLS_DEFAULT_PORT = 8883;
const PLAIN_DEFAULT_PORT = 1883;

/** The provisioning details for a request that reached the server as `requestHostname` (no port). */
export function provisioningFor(config: Pick<TConfig, 'publicMqttUrl' | 'mqttPort'>, requestHostname: string): TProvisioning {
  const id = '{id}';
  const topicTemplates = {
    telemetry: topics.telemetry(id),
    status: topics.status(id),
    commands: topics.command(id, '{reqId}'),
    command_reply: topics.commandReply(id, '{reqId}'),
    config: topics.config(id),
  };
  if (config.publicMqttUrl) {
    const url = new URL(config.publicMqttUrl);
    const tls = url.protocol === 'mqtts:' || url.protocol === 'ssl:';
    const port = url.port ? Number(url.port) : tls ? TLS_DEFAULT_PORT : PLAIN_DEFAULT_PORT;
    const host = url.hostname;
    return { source: 'config', host, port, tls, url: `${tls ? 'mqtts' : 'mqtt'}://${host}:${port}`, topics: topicTemplates };
  }
  const host = requestHostname;
  const port = config.mqttPort;
  return { source: 'request', host, port, tls: false, url: `mqtt://${host}:${port}`, topics: topicTemplates };
}
