/**
 * Filing a publish a second time (pipeline.ts): a message that brought keys its project does not know yet but accepts
 * as undeclared (docs/decisions/telemetry.md "Undeclared keys") waits for their offer to be answered, then enters the
 * admission gate again and is parsed against the keys the offer taught — the same path as any publish.
 */
import type { AdmissionGate } from './admission.js';
import type { TWaiter } from './batch.js';

/**
 * Once `offered` resolves, takes the admission gate (waiting its turn), runs `retake` (which parses and files the
 * publish, answering the points it holds) and `schedule`. A failed offer, or a gate closed by shutdown, rejects
 * `waiter`: the publisher is not acknowledged and resends. Resolves when done, never rejects.
 */
export function refileAfter(
  offered: Promise<void>,
  gate: AdmissionGate,
  retake: () => number,
  schedule: () => void,
  waiter: TWaiter,
): Promise<void> {
  return offered
    .then(async () => {
      const turn = gate.enter();
      if (turn) await turn;
      let held = 0;
      try {
        held = retake();
      } finally {
        gate.added(held);
      }
      schedule();
    })
    .catch((err: unknown) => waiter.reject(err instanceof Error ? err : new Error(String(err))));
}
