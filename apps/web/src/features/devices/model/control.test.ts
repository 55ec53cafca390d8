import { readFileSync } from 'node:fs';
import { COMMAND_OUTCOMES, ErrorCode, USER_RULE_LEVELS, VALUE_TEST_OPS } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { flattenKeys } from '../../../i18n/resources';
import { HttpError } from '../../../lib/http';
import { COMMAND_ERROR_KEYS, commandErrorKey, conditionText, splitUptime } from './control';

describe('device control display rules', () => {
  it('explains offline, timeout and device errors; anything else is a plain failure', () => {
    expect(commandErrorKey(new HttpError(409, ErrorCode.DeviceOffline, 'x'))).toBe('deviceControl.remote.errors.offline');
    expect(commandErrorKey(new HttpError(504, ErrorCode.DeviceTimeout, 'x'))).toBe('deviceControl.remote.errors.timeout');
    expect(commandErrorKey(new HttpError(502, ErrorCode.DeviceError, 'x'))).toBe('deviceControl.remote.errors.deviceError');
    expect(commandErrorKey(new HttpError(0, 'OFFLINE', 'x'))).toBe('deviceControl.remote.errors.failed');
    expect(commandErrorKey(new Error('x'))).toBe('deviceControl.remote.errors.failed');
    expect(COMMAND_ERROR_KEYS).toContain('deviceControl.remote.errors.failed');
  });

  it('splits an uptime into days and HH:MM:SS', () => {
    expect(splitUptime(0)).toEqual({ days: 0, hms: '00:00:00' });
    expect(splitUptime(86_400 * 2 + 3600 * 3 + 60 * 4 + 5)).toEqual({ days: 2, hms: '03:04:05' });
    expect(splitUptime(59.9)).toEqual({ days: 0, hms: '00:00:59' });
  });

  it('writes a rule condition as key[.slot] op threshold', () => {
    const t = (key: string) => `<${key}>`;
    const rule = { key: 'temperature', slot: 'v1', op: 'gt', threshold: 30, value: null } as const;
    expect(conditionText(rule, 'en', t)).toBe('temperature > 30');
    expect(conditionText({ ...rule, key: 'vibration', slot: 'v3', op: 'gte', threshold: 1250.5 }, 'en', t)).toBe('vibration.v3 ≥ 1,250.5');
    // A value test on a key that is not a number: the operator's words, the value as JSON.
    expect(conditionText({ ...rule, key: 'state', op: 'equals', threshold: null, value: 'fault' }, 'en', t)).toBe(
      'state <deviceControl.rules.ops.equals> "fault"',
    );
    expect(conditionText({ ...rule, key: 'door', op: 'changed', threshold: null, value: null }, 'en', t)).toBe(
      'door <deviceControl.rules.ops.changed>',
    );
  });
});

describe('device control messages exist in both languages', () => {
  const keys = [
    ...COMMAND_ERROR_KEYS,
    ...COMMAND_OUTCOMES.map((o) => `deviceControl.log.outcomes.${o}`),
    ...USER_RULE_LEVELS.map((l) => `deviceControl.rules.levels.${l}`),
    ...VALUE_TEST_OPS.map((o) => `deviceControl.rules.ops.${o}`),
    'deviceControl.rules.changedHelp',
    'deviceControl.rules.thresholdRequired',
    'deviceControl.clean.passwordIncorrect',
    'deviceControl.edit.failedTitle',
  ];
  for (const lang of ['zh-TW', 'en']) {
    it(lang, () => {
      const file = new URL(`../locales/control.${lang}.json`, import.meta.url);
      const flat = flattenKeys(JSON.parse(readFileSync(file, 'utf8')));
      expect(keys.filter((k) => !(k in flat))).toEqual([]);
    });
  }
});
