import { LINE_PUSH_STATES } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http';
import en from './locales/en.json';
import zh from './locales/zh-TW.json';
import { lineErrorKey, pushStateKey } from './lineErrors';

const lookup = (tree: unknown, key: string) => key.split('.').reduce<unknown>((node, k) => (node as Record<string, unknown>)?.[k], tree);

describe('LINE error messages', () => {
  it("maps the spec's limits to their messages, anything else to the fallback", () => {
    expect(lineErrorKey(new HttpError(409, 'LINE_CONNECTION_LIMIT', 'Line Notify connection limit reached'))).toBe(
      'line.errors.connectionLimit',
    );
    expect(lineErrorKey(new HttpError(409, 'LINE_QUOTA_EXCEEDED', 'x'))).toBe('line.errors.quotaExceeded');
    expect(lineErrorKey(new HttpError(400, 'VALIDATION_FAILED', 'x'))).toBe('errors.saveFailed');
    expect(lineErrorKey(new Error('boom'), 'errors.loadFailed')).toBe('errors.loadFailed');
  });

  it("says the spec's messages in both languages, and names every push state", () => {
    expect(lookup(en, 'line.errors.connectionLimit')).toBe('Line Notify connection limit reached');
    expect(lookup(en, 'line.errors.quotaExceeded')).toBe('Monthly push limit exceeded');
    expect(lookup(zh, 'line.errors.connectionLimit')).toBe('Line Notify 連結數已達上限');
    for (const state of LINE_PUSH_STATES) {
      expect(typeof lookup(en, pushStateKey(state))).toBe('string');
      expect(typeof lookup(zh, pushStateKey(state))).toBe('string');
    }
  });
});
