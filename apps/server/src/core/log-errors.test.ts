import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { LOG_ERROR_TEXT_MAX, serializeLoggedError } from './log-errors.js';

describe('serializeLoggedError', () => {
  it("leaves a failed query's values out of the log line and keeps the database's error", () => {
    const params = Array.from({ length: 5_000 }, (_, i) => `payload-${i}-secret`);
    const driver = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    const err = new DrizzleQueryError('insert into telemetry values ($1, $2, …)', params, driver);
    const line = JSON.stringify(serializeLoggedError(err));
    expect(line).not.toContain('payload-');
    expect(line.length).toBeLessThan(4 * LOG_ERROR_TEXT_MAX);
    const logged = serializeLoggedError(err) as Record<string, unknown>;
    expect(logged.message).toBe('Failed query: insert into telemetry values ($1, $2, …): deadlock detected');
    expect(logged.db).toEqual({ code: '40P01', message: 'deadlock detected' });
    expect(String(logged.stack)).toMatch(/^Error: Failed query: insert into telemetry/);
  });

  it('cuts a very long message and keeps an ordinary error as pino writes it', () => {
    const long = serializeLoggedError(new Error('x'.repeat(50_000))) as { message: string };
    expect(long.message.length).toBeLessThan(LOG_ERROR_TEXT_MAX + 40);
    expect(long.message).toMatch(/\(50000 characters\)$/);
    const plain = serializeLoggedError(new TypeError('bad input')) as Record<string, unknown>;
    expect(plain).toMatchObject({ type: 'TypeError', message: 'bad input' });
    expect(plain.db).toBeUndefined();
    expect(serializeLoggedError('not an error')).toBe('not an error');
  });
});
