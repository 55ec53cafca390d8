import { describe, expect, it } from 'vitest';
import { clipValue, TOOL_VALUE_CHARS_MAX } from './platform-rule-runs.js';

describe('clipValue (platform_rule_runs)', () => {
  it('keeps a value whose text or JSON fits, as it is', () => {
    const fits = { outcome: 'ok', result: { firmwareVersion: '2.1' } };
    expect(clipValue(fits)).toBe(fits);
    expect(clipValue(35.5)).toBe(35.5);
    expect(clipValue('x'.repeat(TOOL_VALUE_CHARS_MAX))).toBe('x'.repeat(TOOL_VALUE_CHARS_MAX));
    expect(clipValue(undefined)).toBeUndefined();
  });

  it('cuts a longer one to TOOL_VALUE_CHARS_MAX characters and says how many were left out', () => {
    expect(clipValue('y'.repeat(TOOL_VALUE_CHARS_MAX + 7))).toBe(`${'y'.repeat(TOOL_VALUE_CHARS_MAX)}… (+7 chars)`);
    const values = Array.from({ length: 100 }, (_, i) => i);
    const json = JSON.stringify(values);
    expect(clipValue(values)).toBe(`${json.slice(0, TOOL_VALUE_CHARS_MAX)}… (+${json.length - TOOL_VALUE_CHARS_MAX} chars)`);
  });
});
