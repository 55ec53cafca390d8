import { describe, expect, it } from 'vitest';
import { canDevicePublish, canDeviceSubscribe, classifyDeviceTopic, liveAccountOf, liveTopicDevice } from './acl.js';

const ME = '540001010000010001000000000001';
const OTHER = '540001010000010001000000000002';

describe('device topic ACL', () => {
  it('lets a device publish its own telemetry, status, command replies and model state only', () => {
    expect(canDevicePublish(ME, `devices/${ME}/telemetry`)).toBe(true);
    expect(canDevicePublish(ME, `devices/${ME}/model/state`)).toBe(true);
    expect(canDevicePublish(ME, `devices/${OTHER}/model/state`)).toBe(false);
    expect(canDevicePublish(ME, `devices/${ME}/model`)).toBe(false);
    expect(canDevicePublish(ME, `devices/${ME}/status`)).toBe(true);
    expect(canDevicePublish(ME, `devices/${ME}/commands/r1/reply`)).toBe(true);
    expect(canDevicePublish(ME, `devices/${OTHER}/telemetry`)).toBe(false);
    expect(canDevicePublish(ME, `devices/${ME}/config`)).toBe(false);
    expect(canDevicePublish(ME, `devices/${ME}/commands/r1`)).toBe(false);
    expect(canDevicePublish(ME, `live/devices/${ME}`)).toBe(false);
    expect(canDevicePublish(ME, `devices/${ME}/telemetry/extra`)).toBe(false);
  });

  it('lets a device subscribe to its own commands, config and model only, no broad wildcards', () => {
    expect(canDeviceSubscribe(ME, `devices/${ME}/model`)).toBe(true);
    expect(canDeviceSubscribe(ME, `devices/${OTHER}/model`)).toBe(false);
    expect(canDeviceSubscribe(ME, `devices/${ME}/model/state`)).toBe(false);
    expect(canDeviceSubscribe(ME, `devices/${ME}/commands/+`)).toBe(true);
    expect(canDeviceSubscribe(ME, `devices/${ME}/commands/abc`)).toBe(true);
    expect(canDeviceSubscribe(ME, `devices/${ME}/config`)).toBe(true);
    expect(canDeviceSubscribe(ME, `devices/${ME}/#`)).toBe(false);
    expect(canDeviceSubscribe(ME, `devices/+/config`)).toBe(false);
    expect(canDeviceSubscribe(ME, `devices/${OTHER}/config`)).toBe(false);
    expect(canDeviceSubscribe(ME, `devices/${ME}/telemetry`)).toBe(false);
    expect(canDeviceSubscribe(ME, '#')).toBe(false);
  });

  it('reads the device of a live topic and refuses wildcards', () => {
    expect(liveTopicDevice(`live/devices/${ME}`)).toBe(ME);
    expect(liveTopicDevice('live/devices/+')).toBeNull();
    expect(liveTopicDevice('live/#')).toBeNull();
    expect(liveTopicDevice(`live/devices/${ME}/x`)).toBeNull();
  });

  it('reads the account of a live alerts topic and refuses wildcards and odd ids', () => {
    expect(liveAccountOf('live/accounts/42/alerts')).toBe(42);
    expect(liveAccountOf('live/accounts/+/alerts')).toBeNull();
    expect(liveAccountOf('live/accounts/#')).toBeNull();
    expect(liveAccountOf('live/accounts/42/#')).toBeNull();
    expect(liveAccountOf('live/accounts/42/+')).toBeNull();
    expect(liveAccountOf('live/accounts/042/alerts')).toBeNull();
    expect(liveAccountOf('live/accounts/0/alerts')).toBeNull();
    expect(liveAccountOf('live/accounts/4x/alerts')).toBeNull();
    expect(liveAccountOf('live/accounts/42/alerts/x')).toBeNull();
    expect(liveAccountOf('live/accounts/42/access')).toBe(42);
    expect(liveAccountOf('live/accounts/42/other')).toBeNull();
    expect(liveAccountOf('live/accounts/2147483648/access')).toBeNull();
    expect(liveAccountOf('live/devices/42')).toBeNull();
  });

  it('classifies device topics', () => {
    expect(classifyDeviceTopic(`devices/${ME}/telemetry`)).toEqual({ tangramId: ME, kind: 'telemetry' });
    expect(classifyDeviceTopic(`devices/${ME}/commands/+/reply`)?.kind).toBe('other');
    expect(classifyDeviceTopic('other/x/y')).toBeNull();
  });
});
