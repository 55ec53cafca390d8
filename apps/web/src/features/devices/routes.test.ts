import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { deviceRoutes } from './routes';

const leaf = (path: string) => matchRoutes(deviceRoutes, path)?.map((m) => m.route.path ?? (m.route.index ? '(index)' : ''));

describe('device routes (spec §2)', () => {
  it('match the list, the detail and each tab built in this release', () => {
    expect(leaf('/device')).toEqual(['device']);
    expect(leaf('/device/list')).toEqual(['device/list']);
    expect(leaf('/device/detail/ABC')).toEqual(['device/detail/:tangramId', '(index)']);
    for (const tab of ['telemetry-status', 'history-chart', 'realtime-chart', 'app-rules', 'motor-health', 'remote-control']) {
      expect(leaf(`/device/detail/ABC/${tab}`)).toEqual(['device/detail/:tangramId', tab]);
    }
  });
});
