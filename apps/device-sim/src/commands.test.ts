import { ZDeviceCommandReply, ZDeviceInfoReply, ZSensorReading } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { answerCommand, SIM_FIRMWARE_VERSION, type TCommandState } from './commands.js';
import { seededRandom } from './generators.js';

const STARTED = 1_767_225_600_000;
const state = (): TCommandState => ({
  keys: ['temperature', 'humidity', 'vibration'],
  schedule: new Map([
    ['temperature', 1000],
    ['vibration', 5000],
  ]),
  startedAt: STARTED,
  rssiDbm: -61,
  rnd: seededRandom(1),
});
const answer = (command: unknown, now = STARTED + 90_500) => ZDeviceCommandReply.parse(answerCommand(command, state(), now));

describe('simulated device command answers (docs/protocol.md "Commands")', () => {
  it('getDeviceInfo: firmware, uptime, RSSI and every sensor with its upload period (0 when off)', () => {
    const reply = answer({ name: 'getDeviceInfo', params: {} });
    expect(reply.ok).toBe(true);
    expect(ZDeviceInfoReply.parse(reply.result)).toEqual({
      firmwareVersion: SIM_FIRMWARE_VERSION,
      uptimeMs: 90_500,
      rssiDbm: -61,
      sensors: [
        { key: 'temperature', enabled: true, uploadPeriodMs: 1000 },
        { key: 'humidity', enabled: false, uploadPeriodMs: 0 },
        { key: 'vibration', enabled: true, uploadPeriodMs: 5000 },
      ],
    });
  });

  it('sensorCommand read: the key sampled now, one value per axis', () => {
    const now = STARTED + 1000;
    const temp = ZSensorReading.parse(answer({ name: 'sensorCommand', params: { key: 'temperature', action: 'read' } }, now).result);
    expect(temp.key).toBe('temperature');
    expect(temp.ts).toBe(now);
    expect(temp.vs).toHaveLength(1);
    expect(temp.vs[0]).toBeGreaterThan(15);
    expect(temp.vs[0]).toBeLessThan(30);
    const vib = ZSensorReading.parse(answer({ name: 'sensorCommand', params: { key: 'vibration', action: 'read' } }).result);
    expect(vib.vs).toHaveLength(3);
  });

  it('refuses what it does not know with { ok: false, error }', () => {
    expect(answer({ name: 'sensorCommand', params: { key: 'pressure', action: 'read' } })).toEqual({
      ok: false,
      error: 'unknown sensor key pressure',
    });
    expect(answer({ name: 'sensorCommand', params: { key: 'temperature', action: 'calibrate' } })).toEqual({
      ok: false,
      error: 'unknown action calibrate',
    });
    expect(answer({ name: 'sensorCommand', params: { key: 'temperature' } }).ok).toBe(false);
    expect(answer({ name: 'reboot', params: {} })).toEqual({ ok: false, error: 'unknown command reboot' });
    expect(answer('not a command')).toEqual({ ok: false, error: 'unreadable command' });
    expect(answer(null)).toEqual({ ok: false, error: 'unreadable command' });
  });
});
