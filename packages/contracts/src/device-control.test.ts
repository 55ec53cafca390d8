import { describe, expect, it } from 'vitest';
import { RSSI_MIN_DBM, ZDeviceInfoReply, ZSensorAction } from './device-commands.js';
import {
  deviceControlPaths,
  USER_RULE_COOLDOWN_MAX_S,
  USER_RULE_THRESHOLD_MAX,
  ZCleanDataRequest,
  ZFcmStatusUpdate,
  ZSensorCommandRequest,
  type TUserRuleTest,
  userRuleProblem,
  ZUserRuleInput,
  ZUserRuleUpdate,
} from './device-control.js';
import { NAME_MAX } from './limits.js';

const rule = { name: 'Too hot', key: 'temperature', op: 'gt', threshold: 30 };
const ok = (input: unknown) => ZUserRuleInput.safeParse(input).success;
const ID = '5400010100002A1A2B0000000000FF';

describe('ZUserRuleInput (app rules)', () => {
  it('fills the defaults: v1, no value, remind, enabled, 300 s', () => {
    expect(ZUserRuleInput.parse(rule)).toEqual({ ...rule, slot: 'v1', value: null, level: 'remind', enabled: true, cooldown_s: 300 });
  });

  it(`name: 1 to ${NAME_MAX} characters after trimming`, () => {
    expect(ok({ ...rule, name: 'x'.repeat(NAME_MAX) })).toBe(true);
    expect(ok({ ...rule, name: 'x'.repeat(NAME_MAX + 1) })).toBe(false);
    expect(ok({ ...rule, name: '   ' })).toBe(false);
    expect(ZUserRuleInput.parse({ ...rule, name: '  Hot  ' }).name).toBe('Hot');
  });

  it(`threshold: finite, |threshold| ≤ ${USER_RULE_THRESHOLD_MAX}`, () => {
    expect(ok({ ...rule, threshold: USER_RULE_THRESHOLD_MAX })).toBe(true);
    expect(ok({ ...rule, threshold: -USER_RULE_THRESHOLD_MAX })).toBe(true);
    expect(ok({ ...rule, threshold: USER_RULE_THRESHOLD_MAX + 1 })).toBe(false);
    expect(ok({ ...rule, threshold: -USER_RULE_THRESHOLD_MAX - 1 })).toBe(false);
    expect(ok({ ...rule, threshold: Number.POSITIVE_INFINITY })).toBe(false);
    expect(ok({ ...rule, threshold: '30' })).toBe(false);
  });

  it(`cooldown: whole seconds 0 to ${USER_RULE_COOLDOWN_MAX_S}`, () => {
    expect(ok({ ...rule, cooldown_s: 0 })).toBe(true);
    expect(ok({ ...rule, cooldown_s: USER_RULE_COOLDOWN_MAX_S })).toBe(true);
    expect(ok({ ...rule, cooldown_s: USER_RULE_COOLDOWN_MAX_S + 1 })).toBe(false);
    expect(ok({ ...rule, cooldown_s: -1 })).toBe(false);
    expect(ok({ ...rule, cooldown_s: 1.5 })).toBe(false);
  });

  it('op, slot and level come from fixed lists; the key is a telemetry key', () => {
    expect(ok({ ...rule, op: 'between' })).toBe(false);
    expect(ok({ ...rule, slot: 'v4' })).toBe(false);
    expect(ok({ ...rule, level: 'critical' })).toBe(false);
    expect(ok({ ...rule, level: 'early_warning', slot: 'v3', op: 'neq' })).toBe(true);
    expect(ok({ ...rule, key: 'x'.repeat(32) })).toBe(true);
    expect(ok({ ...rule, key: 'x'.repeat(33) })).toBe(false);
    expect(ok({ ...rule, key: 'temp rature' })).toBe(false);
  });

  it('a value test parses without a threshold (null by default); values are JSON values', () => {
    const test = { name: 'Fault', key: 'state', op: 'equals', value: 'fault' };
    expect(ZUserRuleInput.parse(test)).toMatchObject({ op: 'equals', value: 'fault', threshold: null });
    expect(ZUserRuleInput.parse({ ...test, op: 'changed', value: null })).toMatchObject({ op: 'changed', value: null, threshold: null });
    expect(ok({ ...test, op: 'contains', value: { mode: 'auto' } })).toBe(true);
    expect(ok({ ...test, op: 'matches' })).toBe(false);
  });

  it('an update takes any subset and has no defaults', () => {
    expect(ZUserRuleUpdate.parse({})).toEqual({});
    expect(ZUserRuleUpdate.parse({ enabled: false })).toEqual({ enabled: false });
    expect(ZUserRuleUpdate.safeParse({ name: 'x'.repeat(NAME_MAX + 1) }).success).toBe(false);
  });
});

describe("userRuleProblem (the simple rules' check, decided alike by server and console)", () => {
  const test = (over: Partial<TUserRuleTest>): TUserRuleTest => ({
    key: 'state',
    slot: 'v1',
    op: 'equals',
    threshold: null,
    value: 'fault',
    ...over,
  });
  it('a number key takes a comparison with a threshold, nothing else', () => {
    expect(userRuleProblem('number', test({ key: 't', op: 'gt', threshold: 30, value: null }))).toBeNull();
    expect(userRuleProblem('number', test({ key: 't', op: 'equals' }))?.field).toBe('op');
    expect(userRuleProblem('number', test({ key: 't', op: 'gt', threshold: null, value: null }))?.field).toBe('threshold');
  });
  it('a string key: equals, contains and changed; a comparison refused naming the operators', () => {
    expect(userRuleProblem('string', test({}))).toBeNull();
    expect(userRuleProblem('string', test({ op: 'contains', value: 'err' }))).toBeNull();
    expect(userRuleProblem('string', test({ op: 'changed', value: null }))).toBeNull();
    expect(userRuleProblem('string', test({ op: 'gt', threshold: 3, value: null }))).toEqual({
      field: 'op',
      message: 'state holds string values: its operators are equals, contains, changed, not "gt"',
    });
    expect(userRuleProblem('string', test({ op: 'equals', value: 3 }))?.field).toBe('value');
    expect(userRuleProblem('string', test({ op: 'contains', value: '' }))?.field).toBe('value');
    expect(userRuleProblem('string', test({ op: 'changed', value: 'x' }))?.field).toBe('value');
    expect(userRuleProblem('string', test({ threshold: 1 }))?.field).toBe('threshold');
    expect(userRuleProblem('string', test({ slot: 'v2' }))?.field).toBe('slot');
  });
  it('a boolean key has no contains; a json key compares JSON', () => {
    expect(userRuleProblem('boolean', test({ key: 'door', value: true }))).toBeNull();
    expect(userRuleProblem('boolean', test({ key: 'door', value: 'true' }))?.field).toBe('value');
    expect(userRuleProblem('boolean', test({ key: 'door', op: 'contains', value: true }))?.field).toBe('op');
    expect(userRuleProblem('json', test({ key: 'cfg', op: 'contains', value: { mode: 'auto' } }))).toBeNull();
  });
});

describe('remote control', () => {
  it('sensorCommand: action defaults to read; actions are 1–32 word characters starting with a letter', () => {
    expect(ZSensorCommandRequest.parse({ key: 'temperature' })).toEqual({ key: 'temperature', action: 'read' });
    expect(ZSensorAction.safeParse('a'.repeat(32)).success).toBe(true);
    expect(ZSensorAction.safeParse('a'.repeat(33)).success).toBe(false);
    expect(ZSensorAction.safeParse('').success).toBe(false);
    expect(ZSensorAction.safeParse('1read').success).toBe(false);
    expect(ZSensorAction.safeParse('read/all').success).toBe(false);
  });

  it(`getDeviceInfo reply: RSSI ${RSSI_MIN_DBM} to 0 dBm, uptime a non-negative integer`, () => {
    const info = { firmwareVersion: '1.0', uptimeMs: 0, rssiDbm: 0, sensors: [{ key: 't', enabled: true, uploadPeriodMs: 1000 }] };
    expect(ZDeviceInfoReply.safeParse(info).success).toBe(true);
    expect(ZDeviceInfoReply.safeParse({ ...info, rssiDbm: RSSI_MIN_DBM }).success).toBe(true);
    expect(ZDeviceInfoReply.safeParse({ ...info, rssiDbm: RSSI_MIN_DBM - 1 }).success).toBe(false);
    expect(ZDeviceInfoReply.safeParse({ ...info, rssiDbm: 1 }).success).toBe(false);
    expect(ZDeviceInfoReply.safeParse({ ...info, uptimeMs: -1 }).success).toBe(false);
    expect(ZDeviceInfoReply.safeParse({ ...info, firmwareVersion: '' }).success).toBe(false);
  });

  it('paths follow spec §7 devices', () => {
    expect(deviceControlPaths.getDeviceInfo(ID)).toBe(`/frontstage/v1/devices/${ID}/remoteControl/getDeviceInfo`);
    expect(deviceControlPaths.fcmStatus).toBe('/frontstage/v1/devices/configFCMStatus');
    expect(deviceControlPaths.userRule(ID, 7)).toBe(`/frontstage/v1/devices/${ID}/userRules/7`);
  });
});

describe('configFCMStatus and clean-data bodies', () => {
  it('FCM: a 30-hex-digit Tangram ID in any case (upper-cased) and a boolean', () => {
    expect(ZFcmStatusUpdate.parse({ tangram_id: ID.toLowerCase(), enabled: true })).toEqual({ tangram_id: ID, enabled: true });
    expect(ZFcmStatusUpdate.safeParse({ tangram_id: `${ID}0`, enabled: true }).success).toBe(false);
    expect(ZFcmStatusUpdate.safeParse({ tangram_id: ID.slice(1), enabled: true }).success).toBe(false);
    expect(ZFcmStatusUpdate.safeParse({ tangram_id: ID, enabled: 'yes' }).success).toBe(false);
  });

  it('clean-data: a password of 1 to 128 characters', () => {
    expect(ZCleanDataRequest.safeParse({ password: 'x' }).success).toBe(true);
    expect(ZCleanDataRequest.safeParse({ password: 'x'.repeat(128) }).success).toBe(true);
    expect(ZCleanDataRequest.safeParse({ password: 'x'.repeat(129) }).success).toBe(false);
    expect(ZCleanDataRequest.safeParse({ password: '' }).success).toBe(false);
    expect(ZCleanDataRequest.safeParse({}).success).toBe(false);
  });
});
