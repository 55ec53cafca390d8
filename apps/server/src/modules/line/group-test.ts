/**
 * POST message-flow/{id}/test (console "a test push"): queues a test text to every deliverable member through the
 * outbox and sends it at once, answering each member's outcome. A push LINE did not take (LINE down) stays pending
 * and the worker retries it, like any other.
 */
import { inArray } from 'drizzle-orm';
import { LineErrorCode, type TLineGroupTestResult } from '@tessera/contracts';
import { badRequest, conflict } from '../../core/errors.js';
import { lineOutbox } from '../../db/schema.js';
import { ownedGroup } from './groups-read.js';
import { readMembers } from './members.js';
import { loadChannel } from './official-account.js';
import { deliverNow } from './push-worker.js';
import { enqueueLinePushes } from './queue.js';
import type { TLineRuntime } from './runtime.js';
import { testPushText } from './texts.js';

/**
 * Pushes the test text to group `id`'s members now.
 * @throws AppError 404 not the tenant's group; 409 LINE_NOT_CONFIGURED; 400 LINE_NO_TARGETS when no member is reachable.
 */
export async function testGroupPush(rt: TLineRuntime, tenantId: number, id: number): Promise<TLineGroupTestResult> {
  const group = await ownedGroup(rt.db, tenantId, id);
  if (!(await loadChannel(rt.db, rt.box, tenantId))) throw conflict('the Line official account is not set up', LineErrorCode.NotConfigured);
  const members = (await readMembers(rt.db, [id])).filter((m) => m.deliverable && m.to);
  if (members.length === 0) throw badRequest('no member of this group can be reached on LINE', LineErrorCode.NoTargets);
  const ids = await enqueueLinePushes(
    rt.db,
    members.map((m) => ({
      tenantId,
      to: m.to!,
      text: testPushText(m.language, group.name),
      alertId: null,
      groupId: id,
      accountId: m.kind === 'account' ? m.id : null,
    })),
    { leased: true },
  );
  await deliverNow(rt, ids);
  const rows = await rt.db
    .select({ id: lineOutbox.id, status: lineOutbox.status, error: lineOutbox.lastError })
    .from(lineOutbox)
    .where(inArray(lineOutbox.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    results: members.map((m, i) => ({
      kind: m.kind,
      id: m.id,
      label: m.label,
      status: byId.get(ids[i])?.status ?? 'pending',
      error: byId.get(ids[i])?.error ?? null,
    })),
  };
}
