import { CHUNK_LOAD_TIMEOUT_MS } from '@tessera/contracts';
import { matchRoutes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deviceRoutes } from './routes';

// The device detail page's chunk never arrives (a stalled network).
vi.mock('./pages/DeviceDetailPage', () => new Promise(() => {}));

describe('device routes load through the console lazyPage', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fails a device page whose chunk stalls after CHUNK_LOAD_TIMEOUT_MS (spec §9), not later and not never', async () => {
    vi.useFakeTimers();
    const detail = matchRoutes(deviceRoutes, '/device/detail/ABC')?.[0].route;
    const lazy = detail?.lazy as () => Promise<unknown>;
    let outcome: unknown = 'pending';
    lazy().then(
      () => {
        outcome = 'loaded';
      },
      (err: Error) => {
        outcome = err.message;
      },
    );
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBe(`chunk load timed out after ${CHUNK_LOAD_TIMEOUT_MS} ms`);
  });
});
