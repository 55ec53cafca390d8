/**
 * HTTP long polls waiting on this replica, by device: ThingsBoard's `GET /api/v1/{token}/rpc` (one command answers
 * one poll) and `GET /api/v1/{token}/attributes/updates` (a shared attribute change answers every poll of the device),
 * held by thingsboard-downlink.ts. A poll is answered exactly once: by a value handed to it, or null at its timeout,
 * when its caller goes away (`signal`) or when the replica stops.
 */

type TAnswer<T> = (value: T | null) => void;

/** The open long polls of one kind, by Tangram ID; a value of type `T` answers them. */
export class DeviceLongPolls<T> {
  private readonly waiting = new Map<string, Set<TAnswer<T>>>();

  /**
   * Waits up to `timeoutMs` (milliseconds) for a value for device `tangramId`; null when none came, `signal` aborted
   * or {@link endAll} ran.
   */
  wait(tangramId: string, timeoutMs: number, signal?: AbortSignal): Promise<T | null> {
    if (signal?.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      let set = this.waiting.get(tangramId);
      if (!set) {
        set = new Set();
        this.waiting.set(tangramId, set);
      }
      const answer: TAnswer<T> = (value) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const open = this.waiting.get(tangramId);
        open?.delete(answer);
        if (open?.size === 0) this.waiting.delete(tangramId);
        resolve(value);
      };
      const onAbort = () => answer(null);
      const timer = setTimeout(() => answer(null), timeoutMs);
      signal?.addEventListener('abort', onAbort);
      set.add(answer);
    });
  }

  /** Whether a poll of device `tangramId` is open here. */
  has(tangramId: string): boolean {
    return (this.waiting.get(tangramId)?.size ?? 0) > 0;
  }

  /** Answers the oldest open poll of `tangramId` with `value`; false when none is open. */
  answerOne(tangramId: string, value: T): boolean {
    const oldest = this.waiting.get(tangramId)?.values().next().value;
    oldest?.(value);
    return oldest !== undefined;
  }

  /** Answers every open poll of `tangramId` with `value`; answers how many there were. */
  answerAll(tangramId: string, value: T): number {
    const open = [...(this.waiting.get(tangramId) ?? [])];
    for (const answer of open) answer(value);
    return open.length;
  }

  /** Answers every open poll null (the replica stops). */
  endAll(): void {
    for (const set of [...this.waiting.values()]) for (const answer of [...set]) answer(null);
  }
}
