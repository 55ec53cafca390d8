import { MODEL_DEPLOYMENT_STATES, type TRolloutCounts } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import en from '../locales/en.json';
import zh from '../locales/zh-TW.json';
import {
  devicePercent,
  isRolloutSettled,
  isStateActive,
  ROLLOUT_REFRESH_MS,
  rolloutRefreshMs,
  rolloutSummary,
  STATE_COLOURS,
  shortSha,
} from './rolloutProgress';

const counts = (c: Partial<TRolloutCounts>): TRolloutCounts => ({
  pending: 0,
  downloading: 0,
  installed: 0,
  failed: 0,
  superseded: 0,
  ...c,
});

describe('rolloutSummary', () => {
  it('sums pending and downloading as in progress and leaves superseded devices out of the target', () => {
    expect(rolloutSummary(counts({ pending: 1, downloading: 2, installed: 3, failed: 1, superseded: 3 }))).toEqual({
      installed: 3,
      failed: 1,
      inProgress: 3,
      superseded: 3,
      total: 10,
      target: 7,
      installedPercent: 42,
      failedPercent: 14,
    });
  });

  it('says 100 % installed only when every targeted device is', () => {
    expect(rolloutSummary(counts({ installed: 3 })).installedPercent).toBe(100);
    expect(rolloutSummary(counts({ installed: 999, pending: 1 })).installedPercent).toBe(99);
  });

  it('never draws installed and failed over 100 % together', () => {
    const s = rolloutSummary(counts({ installed: 1, failed: 2 }));
    expect(s.installedPercent + s.failedPercent).toBe(100);
    const thirds = rolloutSummary(counts({ installed: 2, failed: 1 }));
    expect(thirds.installedPercent + thirds.failedPercent).toBeLessThanOrEqual(100);
  });

  it('is 0 % of nothing when every device was superseded', () => {
    expect(rolloutSummary(counts({ superseded: 4 }))).toMatchObject({ target: 0, total: 4, installedPercent: 0, failedPercent: 0 });
  });
});

describe('isRolloutSettled and rolloutRefreshMs', () => {
  it('keep refreshing while a device is pending or downloading, or nothing is known yet', () => {
    expect(isRolloutSettled(counts({ pending: 1, installed: 2 }))).toBe(false);
    expect(isRolloutSettled(counts({ downloading: 1 }))).toBe(false);
    expect(rolloutRefreshMs(counts({ downloading: 1 }))).toBe(ROLLOUT_REFRESH_MS);
    expect(rolloutRefreshMs(undefined)).toBe(ROLLOUT_REFRESH_MS);
    expect(ROLLOUT_REFRESH_MS).toBe(1_000);
  });

  it('stop once installed, failed and superseded are all there is', () => {
    const final = counts({ installed: 2, failed: 1, superseded: 1 });
    expect(isRolloutSettled(final)).toBe(true);
    expect(rolloutRefreshMs(final)).toBe(false);
  });

  it('agree with isStateActive on which states move', () => {
    expect(MODEL_DEPLOYMENT_STATES.filter(isStateActive)).toEqual(['pending', 'downloading']);
    for (const s of MODEL_DEPLOYMENT_STATES) expect(isRolloutSettled(counts({ [s]: 1 }))).toBe(!isStateActive(s));
  });
});

describe('devicePercent', () => {
  it('shows the download while downloading, clamped and whole', () => {
    expect(devicePercent({ state: 'downloading', progress: 0.456 })).toBe(45);
    expect(devicePercent({ state: 'downloading', progress: 1.2 })).toBe(100);
    expect(devicePercent({ state: 'downloading', progress: -1 })).toBe(0);
  });
  it('is 100 once installed and 0 otherwise', () => {
    expect(devicePercent({ state: 'installed', progress: 0 })).toBe(100);
    expect(devicePercent({ state: 'failed', progress: 0.7 })).toBe(0);
    expect(devicePercent({ state: 'pending', progress: 0 })).toBe(0);
  });
});

describe('state tags', () => {
  it('give installed and failed their success and error colours', () => {
    expect(STATE_COLOURS.installed).toBe('success');
    expect(STATE_COLOURS.failed).toBe('error');
    expect(STATE_COLOURS.downloading).toBe('processing');
  });
  it('name every state in both languages', () => {
    for (const s of MODEL_DEPLOYMENT_STATES) {
      expect(zh.aiModels.rolloutStates[s]).toBeTruthy();
      expect(en.aiModels.rolloutStates[s]).toBeTruthy();
    }
    expect(zh.aiModels.rolloutStates).toMatchObject({ installed: '已安裝', failed: '失敗' });
  });
});

it('shortSha keeps the first 12 hex digits', () => {
  expect(shortSha('0123456789abcdef'.repeat(4))).toBe('0123456789ab…');
});
