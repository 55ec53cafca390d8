import { describe, expect, it } from 'vitest';
import type { Db } from '../../../db/client.js';
import type { TAlertRaiseRow, TAlertTarget, TAlertTouch } from '../../alerts/alert-store.js';
import { AlertRefresher } from './alert-refresher.js';

const target = (deviceId: number): TAlertTarget => ({
  kind: 'platform',
  ruleId: 1,
  ruleIndex: 4,
  deviceId,
  tenantId: 1,
  projectId: 1,
  productId: 1,
  ruleName: 'hot',
  level: 'alert',
  message: 'hot',
});

describe('platform alert raises', () => {
  it('one write at a time: raises meanwhile merge per alert, counting each, with the newest trigger', async () => {
    const batches: TAlertRaiseRow[][] = [];
    let release: () => void = () => undefined;
    const fakeUpsert = async (_db: Db, rows: readonly TAlertRaiseRow[]): Promise<TAlertTouch[]> => {
      batches.push([...rows]);
      if (batches.length === 1) await new Promise<void>((r) => (release = r));
      return rows.map((r) => ({
        id: r.target.deviceId * 10,
        inserted: batches.length === 2,
        flapping: false,
        notifiedAt: null,
        firstSeenAt: 0,
      }));
    };
    const refresher = new AlertRefresher({} as Db, fakeUpsert, 1);
    const first = refresher.raise(target(1), { key: 'temperature', value: 31 }, 1_000);
    await new Promise((r) => setImmediate(r));
    const merged = [32, 33, 34].map((v, i) => refresher.raise(target(1), { key: 'temperature', value: v }, 1_001 + i));
    const other = refresher.raise(target(2), null, 1_002);
    release();
    const answers = await Promise.all([first, ...merged, other]);

    expect(batches.map((b) => b.map((r) => [r.target.deviceId, r.evaluations, r.trigger?.value ?? null, r.now]))).toEqual([
      [[1, 1, 31, 1_000]],
      [
        [1, 3, 34, 1_003],
        [2, 1, null, 1_002],
      ],
    ]);
    expect(answers.map((a) => [a.touch.id, a.opened])).toEqual([
      [10, false],
      [10, true],
      [10, false],
      [10, false],
      [20, true],
    ]);
  });

  it('rejects every raise of a batch that failed, and writes the next one', async () => {
    let calls = 0;
    const refresher = new AlertRefresher({} as Db, async (_db, rows) => {
      calls += 1;
      if (calls === 1) throw new Error('database gone');
      return rows.map(() => ({ id: 5, inserted: false, flapping: false, notifiedAt: null, firstSeenAt: 0 }));
    });
    await expect(refresher.raise(target(1), null, 1)).rejects.toThrow('database gone');
    await expect(refresher.raise(target(1), null, 2)).resolves.toMatchObject({ touch: { id: 5 }, opened: false });
  });

  it("writes one tick's raises as one statement, and the next tick's without waiting for it", async () => {
    const batches: number[][] = [];
    const held: (() => void)[] = [];
    const refresher = new AlertRefresher({} as Db, async (_db, rows) => {
      batches.push(rows.map((r) => r.target.deviceId));
      await new Promise<void>((r) => held.push(r));
      return rows.map((r) => ({ id: r.target.deviceId, inserted: false, flapping: false, notifiedAt: null, firstSeenAt: 0 }));
    });
    const tick1 = [1, 2, 3].map((d) => refresher.raise(target(d), null, 1));
    await new Promise((r) => setImmediate(r));
    const tick2 = [3, 4].map((d) => refresher.raise(target(d), null, 2));
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([
      [1, 2, 3],
      [3, 4],
    ]);
    for (const release of held) release();
    expect((await Promise.all([...tick1, ...tick2])).map((a) => a.touch.id)).toEqual([1, 2, 3, 3, 4]);
  });

  it('gives a later batch later times than an earlier one, even for raises in the same millisecond', async () => {
    const batches: number[][] = [];
    const refresher = new AlertRefresher({} as Db, async (_db, rows) => {
      batches.push(rows.map((r) => r.now));
      return rows.map(() => ({ id: 1, inserted: false, flapping: false, notifiedAt: null, firstSeenAt: 0 }));
    });
    const first = refresher.raise(target(1), { key: 'temperature', value: 31 }, 5_000);
    await new Promise((r) => setImmediate(r));
    const second = refresher.raise(target(1), { key: 'temperature', value: 32 }, 5_000);
    await Promise.all([first, second]);
    expect(batches).toEqual([[5_000], [5_001]]);
  });
});
