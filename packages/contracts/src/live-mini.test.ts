import { describe, expect, it } from 'vitest';
import { ZLiveAlertMessage } from './alerts.js';
import { ZLiveAccessMessage } from './authz-requests.js';
import { parseMini, VLiveAccessMessage, VLiveAlertMessage, VLiveMessage, VLivePlatformTelemetry } from './live-mini.js';
import { ZLivePlatformTelemetry } from './platform-telemetry.js';
import { ZLiveMessage } from './protocol.js';

const alert = {
  id: 7,
  level: 'alert',
  state: 'open',
  message: 'too hot',
  rule: { kind: 'simple', id: 3, index: 0, name: 'heat' },
  device: { id: 4, tangram_id: '540001000100010000000000000001', name: 'oven' },
  project: { id: 1, name: 'p' },
  product: { id: 2, name: 'q' },
  trigger: { key: 'temperature', value: 81.5 },
  first_seen_at: 1_700_000_000_000,
  last_seen_at: 1_700_000_060_000,
  count: 2,
  flapping: false,
  acknowledged_at: null,
  acknowledged_by: null,
  resolved_at: null,
  resolved_by: null,
  resolved_reason: null,
};

/** Each pair: the classic schema, its small twin, and samples both must accept or refuse alike. */
const cases = [
  {
    name: 'live message',
    classic: ZLiveMessage,
    mini: VLiveMessage,
    samples: [
      { topic: 'live/devices/X', list: [] },
      { topic: 't', list: [{ key: 'temperature', ts: 1, vs: [1.5, null, 3] }] },
      { topic: 't', list: [{ key: 'mode', ts: 1, vs: [], value: 'auto' }], extra: 1 },
      { topic: 't', list: [{ key: 'flags', ts: 1, vs: [], value: { a: [1] } }] },
      { topic: 't', list: [{ key: 'flags', ts: 1, vs: [], value: [1, 'x'] }] },
      { topic: 't', list: [{ key: 'on', ts: 1, vs: [], value: true, junk: 'x' }] },
      { topic: 't', list: [{ key: 'k', ts: 1, vs: [], value: 3 }] },
      { topic: 't', list: [{ key: 'k', ts: 1, vs: [], value: null }] },
      { topic: 't', list: [{ key: 'k', ts: '1', vs: [] }] },
      { topic: 't', list: [{ key: 'k', ts: Number.NaN, vs: [] }] },
      { topic: 't', list: [{ key: 'k', ts: Number.POSITIVE_INFINITY, vs: [] }] },
      { topic: 't', list: [{ key: 'k', ts: 1, vs: [Number.POSITIVE_INFINITY] }] },
      { topic: 't', list: [{ key: 'k', ts: 1, vs: ['1'] }] },
      { topic: 't', list: [{ ts: 1, vs: [] }] },
      { topic: 1, list: [] },
      { list: [] },
      { topic: 't', list: {} },
      [],
      null,
      'text',
    ],
  },
  {
    name: 'live alert message',
    classic: ZLiveAlertMessage,
    mini: VLiveAlertMessage,
    samples: [
      { topic: 'live/accounts/1/alerts', alert },
      {
        topic: 't',
        alert: { ...alert, extra: 1, trigger: null, state: 'resolved', resolved_reason: 'manual', resolved_at: 5, resolved_by: 'a@b' },
      },
      { topic: 't', alert: { ...alert, rule: { ...alert.rule, kind: 'platform' } } },
      { topic: 't', alert: { ...alert, level: 'critical' } },
      { topic: 't', alert: { ...alert, state: 'closed' } },
      { topic: 't', alert: { ...alert, rule: { ...alert.rule, kind: 'other' } } },
      { topic: 't', alert: { ...alert, id: 1.5 } },
      { topic: 't', alert: { ...alert, id: 2 ** 53 } },
      { topic: 't', alert: { ...alert, count: '2' } },
      { topic: 't', alert: { ...alert, flapping: 0 } },
      { topic: 't', alert: { ...alert, trigger: { key: 'k' } } },
      { topic: 't', alert: { ...alert, resolved_reason: 'timeout' } },
      { topic: 't', alert: { ...alert, acknowledged_by: undefined } },
      { topic: 't', alert: { ...alert, device: { id: 1, name: 'x' } } },
      { topic: 't', alert: { ...alert, project: null } },
      { topic: 't' },
    ],
  },
  {
    name: 'live access message',
    classic: ZLiveAccessMessage,
    mini: VLiveAccessMessage,
    samples: [
      { account_id: 1, changed_at: 1_700_000_000_000 },
      { account_id: 1, changed_at: 2, x: 1 },
      { account_id: 1.5, changed_at: 2 },
      { account_id: 1 },
      { account_id: '1', changed_at: 2 },
      {},
    ],
  },
  {
    name: 'live platform telemetry',
    classic: ZLivePlatformTelemetry,
    mini: VLivePlatformTelemetry,
    samples: [
      { id: 1, value: 2.5, ts: 3 },
      { id: 1, value: -1, ts: 3, x: 'y' },
      { id: 1.2, value: 2, ts: 3 },
      { id: 1, value: Number.NaN, ts: 3 },
      { id: 1, value: '2', ts: 3 },
      { id: 1, ts: 3 },
    ],
  },
];

describe('the small live schemas (@tessera/contracts/mini)', () => {
  for (const { name, classic, mini, samples } of cases) {
    it(`accept and refuse exactly what the classic ${name} schema does, with the same value`, () => {
      let accepted = 0;
      for (const sample of samples) {
        const want = classic.safeParse(sample);
        const got = parseMini(mini as never, sample);
        expect(got !== null, JSON.stringify(sample)).toBe(want.success);
        if (want.success) {
          accepted += 1;
          expect(got, JSON.stringify(sample)).toEqual(want.data);
        }
      }
      // Both outcomes are exercised.
      expect(accepted).toBeGreaterThan(0);
      expect(accepted).toBeLessThan(samples.length);
    });
  }
});
