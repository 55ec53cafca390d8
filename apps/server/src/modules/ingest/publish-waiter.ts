/**
 * A publish's acknowledgement (ingest/pipeline.ts): the promise the broker awaits before its PUBACK, and the waiter the
 * batch settles. One executor function serves every publish's promise rather than a closure per publish (an allocation
 * per message, and under tsx a `__name` call each: 2 % of the server's busy time in 1-point ingest).
 */
import type { TWaiter } from './batch.js';

/** A promise's resolve and reject, as the last `new Promise(captureSettlers)` handed them over. */
let capturedSettle: () => void = () => undefined;
let capturedFail: (err: Error) => void = () => undefined;

function captureSettlers(resolve: () => void, reject: (err: Error) => void): void {
  capturedSettle = resolve;
  capturedFail = reject;
}

/** Who is told once that a publish of `bytes` was answered (the pipeline: it is no longer open). */
export interface TAnsweredSink {
  answered(bytes: number): void;
}

/** A publisher's acknowledgement: settling it once also tells its sink (no closure per publish). */
export class PublishWaiter implements TWaiter {
  private isAnswered = false;

  private constructor(
    private readonly sink: TAnsweredSink,
    private readonly bytes: number,
    private readonly settle: () => void,
    private readonly fail: (err: Error) => void,
  ) {}

  /** A waiter and the promise it settles; `sink.answered(bytes)` runs once, at the first settling. */
  static create(sink: TAnsweredSink, bytes: number): { waiter: PublishWaiter; done: Promise<void> } {
    const done = new Promise<void>(captureSettlers);
    return { waiter: new PublishWaiter(sink, bytes, capturedSettle, capturedFail), done };
  }

  resolve(): void {
    if (this.answer()) this.settle();
  }

  reject(err: Error): void {
    if (this.answer()) this.fail(err);
  }

  private answer(): boolean {
    if (this.isAnswered) return false;
    this.isAnswered = true;
    this.sink.answered(this.bytes);
    return true;
  }
}
