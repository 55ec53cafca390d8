/**
 * The trace writer holds at most TRACE_PENDING_MAX rows while the database is behind, dropping and counting the
 * rest (trace-writer.ts): 20,000 runs recorded faster than any write can finish leave the heap with the bound.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB_KIND } from '../../../../test/helpers.js';
import type { Database } from '../../../db/client.js';
import type { TRunRow } from './flow-store.js';
import { TRACE_PENDING_MAX, TraceWriter } from './trace-writer.js';

const row = (i: number): TRunRow => ({
  tenantId: 1,
  ruleId: 1,
  version: 1,
  trigger: { i },
  outcome: 'ok',
  error: null,
  replay: false,
  startedAt: 1_700_000_000_000 + i,
  durationMs: 0.1,
  steps: [],
  effects: [],
});

describe(`platform-rule trace writer bound (${TEST_DB_KIND})`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database?.close());

  it('keeps at most TRACE_PENDING_MAX rows waiting and counts what it drops', async () => {
    const writer = new TraceWriter(database.db, pino({ level: 'silent' }));
    const offered = 20_000;
    for (let i = 0; i < offered; i++) writer.record(row(i));
    expect(writer.dropped).toBeGreaterThan(0);
    // Waiting (dropped by stop) plus in flight plus dropped is everything offered; waiting never passed the bound.
    const waiting = writer.stop();
    expect(waiting).toBeLessThanOrEqual(TRACE_PENDING_MAX);
    expect(offered - writer.dropped - waiting).toBeLessThanOrEqual(1_000);
    await writer.flush();
  });
});
