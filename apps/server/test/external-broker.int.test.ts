/** The external-broker probe: a missing broker skips the MQTT_URL suites locally and fails them under CI. */
import { describe, expect, it } from 'vitest';
import { externalBrokerReachable } from './external-broker.js';

// A port nothing listens on (TCP port 1, tcpmux, is unassigned on these machines).
const NOWHERE = 'mqtt://127.0.0.1:1';

describe('external broker probe', () => {
  it('skips (false) without CI and fails under CI=true when the broker is unreachable', async () => {
    expect(await externalBrokerReachable({}, NOWHERE)).toBe(false);
    await expect(externalBrokerReachable({ CI: 'true' }, NOWHERE)).rejects.toThrow(/not reachable/);
  });
});
