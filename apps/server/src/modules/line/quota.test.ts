import { describe, expect, it } from 'vitest';
import type { TLineClient, TLineQuota } from './client.js';
import type { TLineChannel } from './official-account.js';
import { LINE_QUOTA_CACHE_MS, LineQuotaGate } from './quota.js';

const channel = { tenantId: 1, channelId: '1650000000' } as TLineChannel;

function clientWith(quota: TLineQuota): TLineClient & { asked: number } {
  const client = {
    asked: 0,
    quota: async () => {
      client.asked += 1;
      return { ...quota };
    },
  };
  return client as unknown as TLineClient & { asked: number };
}

describe('LineQuotaGate', () => {
  it('asks LINE once per cache period and counts its own pushes in between', async () => {
    const gate = new LineQuotaGate();
    const client = clientWith({ limit: 2, used: 0 });
    expect(await gate.allows(channel, client, 0)).toBe(true);
    gate.consumed(channel);
    expect(await gate.allows(channel, client, 1)).toBe(true);
    gate.consumed(channel);
    expect(await gate.allows(channel, client, 2)).toBe(false);
    expect(client.asked).toBe(1);
    expect(await gate.allows(channel, client, LINE_QUOTA_CACHE_MS)).toBe(true);
    expect(client.asked).toBe(2);
  });

  it('always allows an unlimited channel, and stops after LINE says the month is used up', async () => {
    const gate = new LineQuotaGate();
    const client = clientWith({ limit: null, used: 10_000 });
    expect(await gate.allows(channel, client, 0)).toBe(true);
    gate.exhausted(channel, 0);
    expect(await gate.allows(channel, client, 1)).toBe(false);
  });
});
