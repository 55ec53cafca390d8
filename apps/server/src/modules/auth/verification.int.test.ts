/**
 * Mailed codes under attack (docs/decisions/auth.md "Registration and codes"): a code is compared at most
 * VERIFY_CODE_MAX_ATTEMPTS times however many guesses arrive at once, a flood never answers 5xx, and the routes that
 * check a code are rate-limited per client address.
 */
import { and, eq } from 'drizzle-orm';
import { ErrorCode, paths, VERIFY_CODE_MAX_ATTEMPTS, type TErrorBody } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount, uniqueEmail } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { verificationCodes } from '../../db/schema.js';
import { latestCodeFor, registerBody, requestRegisterCode } from './auth.fixtures.js';
import { RATE_LIMITS } from './rate-limits.js';

const FRESH = 'Fresh#2026';

describe(`mailed codes: attempts counted before a code is compared, limits per address (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  beforeAll(async () => {
    // Behind a proxy on 127.0.0.1 (app.inject's peer): X-Forwarded-For is the client address.
    server = await startTestServer({ trustProxy: ['127.0.0.1'] });
  });
  afterAll(() => server.stop());

  let ipSeq = 0;
  const nextIp = () => `10.20.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;
  const resetFrom = (ip: string, email: string, code: string) =>
    server.api<TErrorBody>('POST', paths.resetPwd, {
      body: { email, code, password: FRESH, confirm_password: FRESH },
      headers: { 'x-forwarded-for': ip },
    });
  /** `n` six-digit codes, all different from `right`. */
  const wrongCodes = (right: string, n: number) =>
    Array.from({ length: n }, (_, i) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0'));
  const attemptsOf = async (email: string, purpose: 'reset' | 'register') =>
    (
      await server.ctx.db
        .select({ attempts: verificationCodes.attempts })
        .from(verificationCodes)
        .where(and(eq(verificationCodes.email, email), eq(verificationCodes.purpose, purpose)))
    ).map((r) => r.attempts);

  it('compares a reset code at most 5 times whatever the parallelism; the right code is then refused, and no 5xx', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    expect((await server.api('POST', paths.forgotPwd, { body: { email: v.email } })).status).toBe(204);
    const code = await latestCodeFor(server, v.email);
    // Each guess from its own address, as a botnet would: the per-address limit does not stop them.
    const answers = await Promise.all(wrongCodes(code, 250).map((guess) => resetFrom(nextIp(), v.email, guess)));
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(new Set(answers.map((a) => `${a.status} ${a.body.code}`))).toEqual(new Set([`400 ${ErrorCode.CodeInvalid}`]));
    expect(await attemptsOf(v.email, 'reset')).toEqual([VERIFY_CODE_MAX_ATTEMPTS]);

    const right = await resetFrom(nextIp(), v.email, code);
    expect(right.status).toBe(400);
    expect(right.body.code).toBe(ErrorCode.CodeInvalid);
  });

  it('compares a register code at most 5 times under parallel guesses; the right code is then refused', async () => {
    const email = uniqueEmail('race');
    const code = await requestRegisterCode(server, email);
    const register = (guess: string) =>
      server.api<TErrorBody>('POST', paths.register, { body: registerBody(email, guess), headers: { 'x-forwarded-for': nextIp() } });
    const answers = await Promise.all(wrongCodes(code, 60).map(register));
    expect(answers.map((a) => a.status).filter((s) => s !== 400)).toEqual([]);
    expect(await attemptsOf(email, 'register')).toEqual([VERIFY_CODE_MAX_ATTEMPTS]);
    expect((await register(code)).body.code).toBe(ErrorCode.CodeInvalid);
  });

  it('a flood from one address is answered 429 beyond the per-address limit, never 5xx, and spends at most 5 attempts', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    expect((await server.api('POST', paths.forgotPwd, { body: { email: v.email } })).status).toBe(204);
    const code = await latestCodeFor(server, v.email);
    const ip = nextIp();
    const answers = await Promise.all(wrongCodes(code, 2_000).map((guess) => resetFrom(ip, v.email, guess)));
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    // At most the limit is let through (the in-memory counter may refuse even those in a same-tick burst).
    const checked = answers.filter((a) => a.status === 400).length;
    expect(checked).toBeLessThanOrEqual(RATE_LIMITS.codePerIp.max);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(answers.length - checked);
    expect(limited[0].body.code).toBe(ErrorCode.RateLimited);
    expect(Number(limited[0].headers['retry-after'])).toBeGreaterThan(0);
    expect((await attemptsOf(v.email, 'reset'))[0]).toBeLessThanOrEqual(VERIFY_CODE_MAX_ATTEMPTS);
  });

  it('limits reset-pwd and register/aiot per client address, each on its own; other addresses go on', async () => {
    const ip = nextIp();
    const email = uniqueEmail('limit');
    for (let i = 0; i < RATE_LIMITS.codePerIp.max; i++) expect((await resetFrom(ip, email, '000000')).status).toBe(400);
    const limited = await resetFrom(ip, email, '000000');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe(ErrorCode.RateLimited);
    expect((await resetFrom(nextIp(), email, '000000')).status).toBe(400);

    const register = () => server.api('POST', paths.register, { body: registerBody(email, '000000'), headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < RATE_LIMITS.codePerIp.max; i++) expect((await register()).status).toBe(400);
    expect((await register()).status).toBe(429);
  });
});
