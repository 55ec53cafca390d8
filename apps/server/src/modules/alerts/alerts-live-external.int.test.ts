import { topics, ZLiveAlertMessage, type TLiveAlertMessage } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { buildVendor } from '../../../test/factories.js';
import { EXTERNAL_MQTT_URL, externalBrokerReachable } from '../../../test/external-broker.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { connectBrowser, subscribeGranted, waitUntil } from '../ingest/ingest-test-kit.js';
import { insertAlert } from './alerts.fixtures.js';
import { publishAlertChange } from './publish.js';

const reachable = await externalBrokerReachable();

describe.skipIf(!reachable)(`live alerts with an external broker (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  beforeAll(async () => {
    server = await startTestServer({ mqttUrl: EXTERNAL_MQTT_URL });
  });
  afterAll(() => server.stop());

  it("goes through the external broker and reaches the browser on the replica's /mqtt, with the same ACL", async () => {
    const vendor = await buildVendor(server);
    const [dev] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId })).devices;
    const browser = await connectBrowser(server.wsUrl, vendor.token);
    const live: TLiveAlertMessage[] = [];
    browser.on('message', (_t, p) => live.push(ZLiveAlertMessage.parse(JSON.parse(p.toString()))));
    expect(await subscribeGranted(browser, [topics.liveAlerts(vendor.accountId), topics.liveAlerts(vendor.accountId + 1)])).toEqual([
      1, 128,
    ]);

    const message = `external ${Date.now()}`;
    const id = await insertAlert(server.ctx.db, dev.id, { message });
    await publishAlertChange(server.ctx, id);
    // The shared broker may carry other test servers' alerts for the same account id: match on ours.
    await waitUntil(() => live.some((m) => m.alert.message === message));
    expect(live.find((m) => m.alert.message === message)?.alert.device.tangram_id).toBe(dev.tangramId);
    await browser.endAsync();
  });
});
