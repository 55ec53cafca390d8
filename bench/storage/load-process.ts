/**
 * The ingest benches' load process (bench/ingest/one-point-load.ts: MQTT.js devices publishing 1-point QoS 1
 * messages, closed-loop or paced) forked from a storage bench, so the load's CPU is not the server's; one command at
 * a time over the fork's IPC channel.
 */
import { type ChildProcess, fork } from 'node:child_process';
import type { TLoadCommand, TLoadReport } from '../ingest/one-point-load.js';

/** The report of kind `K`. */
export type TLoadReportOf<K extends TLoadReport['kind']> = Extract<TLoadReport, { kind: K }>;

/** The forked load process. */
export class LoadProcess {
  private readonly child: ChildProcess;
  private readonly waiting: ((r: TLoadReport) => void)[] = [];
  private onWindow: (() => void) | null = null;

  constructor() {
    this.child = fork(new URL('../ingest/one-point-load.ts', import.meta.url).pathname, { execArgv: ['--import', 'tsx'] });
    this.child.on('message', (r: TLoadReport) => {
      if (r.kind === 'window') this.onWindow?.();
      else this.waiting.shift()?.(r);
    });
    this.child.on('exit', (code) => {
      if (code) throw new Error(`load process exited with ${code}`);
    });
  }

  /** Sends `cmd`; `onWindow` runs when the measured window starts. Answers the command's report. */
  run<K extends TLoadReport['kind']>(cmd: TLoadCommand, onWindow: () => void = () => undefined): Promise<TLoadReportOf<K>> {
    this.onWindow = onWindow;
    return new Promise((resolve) => {
      this.waiting.push((r) => resolve(r as TLoadReportOf<K>));
      this.child.send(cmd);
    });
  }
}
