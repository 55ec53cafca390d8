import { describe, expect, it } from 'vitest';
import { NO_SETTINGS, reachesSomeone, sameSettings } from './settings';

describe('subscription settings helpers', () => {
  it('compares levels and channels ignoring order', () => {
    expect(sameSettings({ levels: ['alert', 'remind'], channels: ['email'] }, { levels: ['remind', 'alert'], channels: ['email'] })).toBe(
      true,
    );
    expect(sameSettings({ levels: ['alert'], channels: ['email'] }, { levels: ['alert'], channels: ['line'] })).toBe(false);
    expect(sameSettings(NO_SETTINGS, { levels: ['alert'], channels: [] })).toBe(false);
  });

  it('reaches someone only with a level and a channel', () => {
    expect(reachesSomeone({ levels: ['alert'], channels: ['line'] })).toBe(true);
    expect(reachesSomeone({ levels: ['alert'], channels: [] })).toBe(false);
    expect(reachesSomeone(NO_SETTINGS)).toBe(false);
  });
});
