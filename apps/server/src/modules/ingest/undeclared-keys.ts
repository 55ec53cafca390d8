/**
 * Undeclared keys on the ingest side (docs/decisions/telemetry.md "Undeclared keys"). A project that accepts them has
 * an {@link UndeclaredKeys} in its cached key set (directory.ts): the keys it already took are in that set (numbers)
 * or its `valueTypes` (other types) like declared ones, so their points take the same path, and a message with a key
 * it does not know yet is answered as an offer (undeclared-parse.ts). {@link offerUndeclaredKeys} records such keys
 * in the database — the one query of the feature, once per new key, never per message — and teaches the cached set
 * what the database holds, so the message is parsed again against it. The database decides: of two replicas that
 * see a key's first value at once with two types, both learn the one stored first, and the other's points are refused
 * as `malformed` like any value of the wrong type.
 */
import { and, count, eq, inArray, isNull, notExists, type SQL, sql } from 'drizzle-orm';
import { type TNonNumericValueType, type TTelemetryValueType, UNDECLARED_KEYS_MAX } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { projectSensors, projects, projectUndeclaredKeys } from '../../db/schema.js';
import type { TNewKey, TUndeclaredIntake } from './parse-outcome.js';

/** A project's intake of undeclared keys, held with its cached key set and taught by {@link offerUndeclaredKeys}. */
export class UndeclaredKeys implements TUndeclaredIntake {
  /** False once the database said the project no longer accepts undeclared keys. */
  private accepting = true;
  /** Offers under way, by key: a second message with the same new key waits for the first one's offer. */
  private readonly pending = new Map<string, Promise<void>>();

  /**
   * @param projectId the project, @param numeric the cached set of its numeric keys, @param valueTypes the other
   * keys' types (both taught here), @param discarded keys refused again, @param offered keys on offer (counted
   * against UNDECLARED_KEYS_MAX).
   */
  constructor(
    private readonly projectId: number,
    private readonly numeric: Set<string>,
    private readonly valueTypes: Map<string, TNonNumericValueType>,
    readonly discarded: Set<string>,
    private offered: number,
  ) {}

  canOffer(keys: number): boolean {
    return this.accepting && this.offered + keys <= UNDECLARED_KEYS_MAX;
  }

  /**
   * Offers `newKeys` (offerUndeclaredKeys) of a device of tenant `tenantId`, received at `nowMs`, unless an offer of
   * the same key is under way here, and learns the answer. Resolves once every key's offer is answered.
   * @throws the database error.
   */
  offer(db: Db, tenantId: number, newKeys: readonly TNewKey[], nowMs: number): Promise<void> {
    const waits: Promise<void>[] = [];
    const fresh = newKeys.filter((k) => {
      const underWay = this.pending.get(k.key);
      if (underWay) waits.push(underWay);
      return !underWay;
    });
    if (fresh.length > 0) {
      const offering = offerUndeclaredKeys(db, this.projectId, tenantId, fresh, nowMs).then((answer) => this.learn(answer));
      for (const k of fresh) this.pending.set(k.key, offering);
      const forget = () => {
        for (const k of fresh) if (this.pending.get(k.key) === offering) this.pending.delete(k.key);
      };
      offering.then(forget, forget);
      waits.push(offering);
    }
    return Promise.all(waits).then(() => undefined);
  }

  /** Takes what the database answered for the keys of one offer. */
  learn(answer: TOfferAnswer): void {
    if (!answer.accepting) this.accepting = false;
    this.offered = answer.offered;
    for (const [key, type] of answer.types) {
      if (type === 'discarded') this.discarded.add(key);
      else if (type === 'number') this.numeric.add(key);
      else this.valueTypes.set(key, type);
    }
  }
}

/** What the database holds for the keys of an offer, after it. */
export interface TOfferAnswer {
  /** The project still accepts undeclared keys. */
  accepting: boolean;
  /** Keys on offer after this call (UNDECLARED_KEYS_MAX at most). */
  offered: number;
  /** Each key's type now (declared, already offered or just added), or `discarded`; keys not taken are absent. */
  types: Map<string, TTelemetryValueType | 'discarded'>;
}

/**
 * Records `newKeys` (typed by their first value, received at `nowMs`) as undeclared keys of project `projectId` of
 * tenant `tenantId`, in one transaction that locks the project row, so replicas offering at once stay within
 * UNDECLARED_KEYS_MAX: a key a sensor declares or the offer holds keeps its type; the others are added all together
 * if the project still accepts undeclared keys and they fit, else none (their message is refused whole, so no key
 * of it is offered without a point stored).
 * @throws the database error (the caller refuses nothing then: the publisher is not acknowledged and resends).
 */
export async function offerUndeclaredKeys(
  db: Db,
  projectId: number,
  tenantId: number,
  newKeys: readonly TNewKey[],
  nowMs: number,
): Promise<TOfferAnswer> {
  const names = newKeys.map((k) => k.key);
  return db.transaction(async (tx) => {
    const [project] = await tx
      .select({ accepting: projects.acceptsUndeclaredKeys })
      .from(projects)
      .where(eq(projects.id, projectId))
      .for('update');
    const types = new Map<string, TTelemetryValueType | 'discarded'>();
    const declared = await tx
      .select({ key: projectSensors.key, type: projectSensors.valueType })
      .from(projectSensors)
      .where(and(eq(projectSensors.projectId, projectId), inArray(projectSensors.key, names)));
    for (const d of declared) types.set(d.key, d.type);
    const held = await tx
      .select({ key: projectUndeclaredKeys.key, type: projectUndeclaredKeys.valueType, discardedAt: projectUndeclaredKeys.discardedAt })
      .from(projectUndeclaredKeys)
      .where(and(eq(projectUndeclaredKeys.projectId, projectId), inArray(projectUndeclaredKeys.key, names)));
    for (const h of held) if (!types.has(h.key)) types.set(h.key, h.discardedAt === null ? h.type : 'discarded');
    const fresh = newKeys.filter((k) => !types.has(k.key));
    const accepting = project?.accepting ?? false;
    const offered = await offeredCount(tx, projectId);
    if (!accepting || fresh.length === 0 || offered + fresh.length > UNDECLARED_KEYS_MAX) return { accepting, offered, types };
    await tx
      .insert(projectUndeclaredKeys)
      .values(fresh.map((k) => ({ projectId, tenantId, key: k.key, valueType: k.type, valueCount: k.valueCount, firstSeenAt: nowMs })));
    for (const k of fresh) types.set(k.key, k.type);
    return { accepting, offered: offered + fresh.length, types };
  });
}

/**
 * The condition on `project_undeclared_keys` rows of project `projectId` that are on offer: not discarded, and no
 * sensor declares the key since.
 */
export function onOffer(db: Pick<Db, 'select'>, projectId: number): SQL | undefined {
  return and(
    eq(projectUndeclaredKeys.projectId, projectId),
    isNull(projectUndeclaredKeys.discardedAt),
    notExists(
      db
        .select({ one: sql`1` })
        .from(projectSensors)
        .where(and(eq(projectSensors.projectId, projectId), eq(projectSensors.key, projectUndeclaredKeys.key))),
    ),
  );
}

/** How many keys project `projectId` has on offer ({@link onOffer}). */
export async function offeredCount(db: Pick<Db, 'select'>, projectId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(projectUndeclaredKeys).where(onOffer(db, projectId));
  return row?.n ?? 0;
}
