import { describe, expect, it } from 'vitest';
import { provisioningFor } from './provisioning.js';

describe('provisioningFor', () => {
  it('uses PUBLIC_MQTT_URL when set (mqtts → TLS, default port 8883)', () => {
    const p = provisioningFor({ publicMqttUrl: 'mqtts://mqtt.example.com', mqttPort: 1883 }, 'console.example.com');
    expect(p).toMatchObject({ source: 'config', host: 'mqtt.example.com', port: 8883, tls: true, url: 'mqtts://mqtt.example.com:8883' });
  });

  it('falls back to the request host with MQTT_PORT and plain MQTT', () => {
    const p = provisioningFor({ mqttPort: 1884 }, 'console.example.com');
    expect(p).toMatchObject({
      source: 'request',
      host: 'console.example.com',
      port: 1884,
      tls: false,
      url: 'mqtt://console.example.com:1884',
    });
  });

  it('gives the topic templates of docs/protocol.md', () => {
    expect(provisioningFor({ mqttPort: 1883 }, 'h').topics).toEqual({
      telemetry: 'devices/{id}/telemetry',
      status: 'devices/{id}/status',
      commands: 'devices/{id}/commands/{reqId}',
      command_reply: 'devices/{id}/commands/{reqId}/reply',
      config: 'devices/{id}/config',
    });
  });
});
