import { MAX_MODEL_BYTES } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { formatBytes } from './formatBytes';

describe('formatBytes', () => {
  it('picks the largest unit of 1024 below the size, one decimal at most', () => {
    expect(formatBytes(512, 'en')).toBe('512 byte');
    expect(formatBytes(1536, 'en')).toBe('1.5 kB');
    expect(formatBytes(MAX_MODEL_BYTES, 'en')).toBe('200 MB');
    expect(formatBytes(3 * 1024 ** 3, 'en')).toBe('3 GB');
  });
  it('follows the locale', () => {
    expect(formatBytes(MAX_MODEL_BYTES, 'zh-TW')).toBe('200 MB');
  });
});
