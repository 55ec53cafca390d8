/** ThingsBoard gateway topics and payloads (gateway-topics.ts; docs/protocol.md "ThingsBoard gateway API (MQTT)"). */
import { GATEWAY_DEVICE_NAME_MAX, GATEWAY_DEVICES_PER_MESSAGE_MAX } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { classifyGatewayTopic, isGatewayNamespace, isGatewaySubscription, namedEntries, parseAttributeRequest } from './gateway-topics.js';

const json = (v: unknown) => Buffer.from(JSON.stringify(v));

describe('gateway topics', () => {
  it('serves the documented publish topics (a claim to refuse it) and the three subscriptions exactly as written', () => {
    expect(classifyGatewayTopic('v1/gateway/telemetry')).toEqual({ kind: 'telemetry' });
    expect(classifyGatewayTopic('v1/gateway/attributes/request')).toEqual({ kind: 'attribute_request' });
    expect(classifyGatewayTopic('v1/gateway/claim')).toEqual({ kind: 'claim' });
    expect(classifyGatewayTopic('v1/gateway/provision')).toBeNull();
    expect(classifyGatewayTopic('v1/gateway/telemetry/x')).toBeNull();
    expect(isGatewayNamespace('v1/gateway/claim')).toBe(true);
    expect(isGatewayNamespace('v1/devices/me/telemetry')).toBe(false);
    expect(['v1/gateway/rpc', 'v1/gateway/attributes', 'v1/gateway/attributes/response'].every(isGatewaySubscription)).toBe(true);
    expect(isGatewaySubscription('v1/gateway/#')).toBe(false);
  });

  it('reads the devices a message names, refusing what is not an object of names', () => {
    expect(namedEntries(json({ 'Device A': [{ temperature: 1 }], 'Device B': { humidity: 2 } }))).toEqual({
      ok: true,
      entries: [
        ['Device A', [{ temperature: 1 }]],
        ['Device B', { humidity: 2 }],
      ],
    });
    expect(namedEntries(Buffer.from('{"Device A":'))).toEqual({ ok: false, reason: 'not JSON' });
    expect(namedEntries(json([{ temperature: 1 }]))).toEqual({ ok: false, reason: 'not a JSON object' });
    expect(namedEntries(json({}))).toMatchObject({ ok: false });
    expect(namedEntries(json({ '  ': {} }))).toMatchObject({ ok: false });
    expect(namedEntries(json({ ['x'.repeat(GATEWAY_DEVICE_NAME_MAX + 1)]: {} }))).toMatchObject({ ok: false });
    const many = Object.fromEntries(Array.from({ length: GATEWAY_DEVICES_PER_MESSAGE_MAX + 1 }, (_, i) => [`d${i}`, {}]));
    expect(namedEntries(json(many))).toMatchObject({ ok: false });
  });

  it('reads both documented attribute request forms', () => {
    expect(parseAttributeRequest({ id: 1, device: 'A', client: true, key: 'fw' })).toEqual({
      ok: true,
      req: { form: 'key', id: 1, device: 'A', scope: 'client', key: 'fw' },
    });
    expect(parseAttributeRequest({ id: 2, device: 'A', client: false, keys: ['a', 'b'] })).toEqual({
      ok: true,
      req: { form: 'keys', id: 2, device: 'A', scope: 'shared', keys: ['a', 'b'] },
    });
    expect(parseAttributeRequest({ id: 3, device: 'A', client: ['a'], shared: ['b'] })).toEqual({
      ok: true,
      req: { form: 'lists', id: 3, device: 'A', client: ['a'], shared: ['b'] },
    });
    expect(parseAttributeRequest({ id: 4, device: 'A', client: true })).toMatchObject({ ok: false });
    expect(parseAttributeRequest({ id: 5, device: 'A', client: 'a,b' })).toMatchObject({ ok: false });
    expect(parseAttributeRequest({ id: 6, client: true, key: 'fw' })).toEqual({ ok: false, reason: 'no device name' });
  });
});
