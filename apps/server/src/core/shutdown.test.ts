import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { runShutdown } from './shutdown.js';

const log = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('runShutdown', () => {
  it('runs the steps in order and reports a clean stop', async () => {
    const ran: string[] = [];
    const outcome = await runShutdown(
      ['a', 'b', 'c'].map((name) => ({ name, run: async () => void ran.push(name) })),
      1_000,
      log,
    );
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(outcome).toMatchObject({ withinDeadline: true, late: [] });
  });

  it('leaves a step that never ends behind at the deadline and still runs the rest', async () => {
    const ran: string[] = [];
    const started = Date.now();
    const outcome = await runShutdown(
      [
        { name: 'hangs', run: () => new Promise(() => undefined) },
        { name: 'after', run: async (deadlineAt: number) => void ran.push(`after ${deadlineAt - Date.now() <= 0}`) },
      ],
      200,
      log,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(outcome).toMatchObject({ withinDeadline: false, late: ['hangs'] });
    expect(ran).toEqual(['after true']);
  });

  it('goes on after a step that throws', async () => {
    const ran: string[] = [];
    const outcome = await runShutdown(
      [
        {
          name: 'throws',
          run: async () => {
            await sleep(1);
            throw new Error('boom');
          },
        },
        { name: 'next', run: async () => void ran.push('next') },
      ],
      1_000,
      log,
    );
    expect(ran).toEqual(['next']);
    expect(outcome.withinDeadline).toBe(true);
  });
});
