/**
 * The embedded broker's per-address limits behind a proxy (modules/ingest/embedded-broker.ts `upgradeAddress`;
 * docs/deployment.md): with TRUST_PROXY naming the proxy, a `/mqtt` WebSocket connection counts against the address
 * its `X-Forwarded-For` gives, so one browser holding connections open cannot take the share of every other browser
 * behind the same nginx; without TRUST_PROXY the header is not believed, and every connection counts as its peer's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestServer, TEST_DB_KIND, type TTestServer } from './helpers.js';

const PENDING_PER_ADDRESS = 3;

/** A `/mqtt` WebSocket opened as if forwarded for `forwardedFor`, sending nothing (a pending connect). */
async function openForwarded(server: TTestServer, forwardedFor: string): Promise<{ ws: WebSocket; closed: () => boolean }> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.httpPort}/mqtt`, 'mqtt', { headers: { 'x-forwarded-for': forwardedFor } });
  let isClosed = false;
  ws.on('close', () => {
    isClosed = true;
  });
  ws.on('error', () => undefined);
  await new Promise<void>((resolve) => {
    ws.once('open', () => resolve());
    ws.once('close', () => resolve());
  });
  // The guard closes a refused connection as soon as it is accepted: give it a moment to do so.
  await new Promise((r) => setTimeout(r, 200));
  return { ws, closed: () => isClosed };
}

describe.each([
  { trusted: true, name: 'behind a trusted proxy' },
  { trusted: false, name: 'without TRUST_PROXY' },
])(`/mqtt per-address limits $name (${TEST_DB_KIND})`, ({ trusted }) => {
  let server: TTestServer;
  const opened: WebSocket[] = [];
  beforeAll(async () => {
    server = await startTestServer({
      mqttMaxPendingConnectsPerIp: PENDING_PER_ADDRESS,
      ...(trusted ? { trustProxy: ['127.0.0.1'] } : {}),
    });
  });
  afterAll(async () => {
    for (const ws of opened) ws.terminate();
    await server?.stop();
  });

  it(trusted ? 'counts each forwarded address by itself' : 'counts every connection as the peer, whatever the header says', async () => {
    const open = async (address: string) => {
      const c = await openForwarded(server, address);
      opened.push(c.ws);
      return c;
    };
    for (let i = 0; i < PENDING_PER_ADDRESS; i++) expect((await open('203.0.113.5')).closed()).toBe(false);
    // Over the share of 203.0.113.5: refused.
    expect((await open('203.0.113.5')).closed()).toBe(true);
    // Another browser behind the same proxy keeps its own share only when the proxy is trusted.
    expect((await open('203.0.113.6')).closed()).toBe(!trusted);
    expect(server.messaging.brokerRefusals().too_many_pending_connects_from_address).toBe(trusted ? 1 : 2);
  });
});
