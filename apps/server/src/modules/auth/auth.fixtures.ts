/** Test fixtures of the auth module: codes from the outbox, sign-up through the API. */
import { desc, eq } from 'drizzle-orm';
import { paths, type TTokenResponse } from '@tessera/contracts';
import { outboxEmails } from '../../db/schema.js';
import type { TTestServer } from '../../../test/helpers.js';

/** The 6-digit code of the latest mail queued for `email` (read from the outbox, as the demo reads the log). */
export async function latestCodeFor(server: TTestServer, email: string): Promise<string> {
  const [row] = await server.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, email)).orderBy(desc(outboxEmails.id)).limit(1);
  const code = row?.subject.match(/\d{6}/)?.[0];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/** Asks for a register code and answers it. */
export async function requestRegisterCode(server: TTestServer, email: string): Promise<string> {
  const res = await server.api('POST', paths.verifyEmail, { body: { email, purpose: 'register' } });
  if (res.status !== 204) throw new Error(`verify-email answered ${res.status}: ${JSON.stringify(res.body)}`);
  return latestCodeFor(server, email);
}

/** A valid register body for `email` with `code` (password meets §5). */
export function registerBody(email: string, code: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { email, code, password: 'Abcd#1234', confirm_password: 'Abcd#1234', name: 'Acme', role: 'vendor', language: 'en', ...overrides };
}

/** Registers through the API and answers the token pair. */
export async function registerVia(server: TTestServer, email: string, role: 'vendor' | 'user' = 'vendor'): Promise<TTokenResponse> {
  const code = await requestRegisterCode(server, email);
  const res = await server.api<TTokenResponse>('POST', paths.register, { body: registerBody(email, code, { role }) });
  if (res.status !== 200) throw new Error(`register answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
