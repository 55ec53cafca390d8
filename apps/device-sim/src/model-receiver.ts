/**
 * What a simulated device does with its retained `devices/{id}/model` messages (docs/protocol.md "AI models"): a new
 * (deploymentId, attempt) pair is installed (model-install.ts), aborting an install still running; the same pair
 * again — the retained message re-delivered on reconnect — re-publishes the final state the device holds, or nothing
 * while that pair still downloads; an empty payload removes the model. The installed model is kept in memory only.
 */
import { ZDeviceModelMessage, type TDeviceModelMessage, type TDeviceModelState } from '@tessera/contracts';
import { installModel } from './model-install.js';

/** Injected faults: the downloaded file is corrupted once (the device's first finished download), or every time. */
export const MODEL_FAULTS = ['corrupt-once', 'corrupt-always'] as const;
export type TModelFault = (typeof MODEL_FAULTS)[number];

/** The model a device holds: its deployment and attempt, model and revision, and the file's hash and length. */
export interface TInstalledModel {
  deploymentId: number;
  attempt: number;
  modelId: number;
  revision: number;
  sha256: string;
  bytes: number;
}

/** Installs that ended `installed` and `failed` (re-published states not counted). */
export interface TModelCounters {
  modelsInstalled: number;
  modelsFailed: number;
}

/** A receiver's device, where its states go, and its faults. */
export interface TModelReceiverOptions {
  tangramId: string;
  secret: string;
  /** Publishes one state on `devices/{id}/model/state` (QoS 1). */
  publishState: (state: TDeviceModelState) => void;
  counters: TModelCounters;
  fault?: TModelFault;
  /** Overrides the progress reports' minimum interval, in milliseconds (tests). */
  progressMinIntervalMs?: number;
}

/** One device's model: what it holds, what it is downloading, and the last final state it reported. */
export class ModelReceiver {
  private running: { message: TDeviceModelMessage; abort: AbortController } | null = null;
  private lastFinal: TDeviceModelState | null = null;
  private installed: TInstalledModel | null = null;
  private hasCorrupted = false;

  constructor(private readonly o: TModelReceiverOptions) {}

  /**
   * Handles one `devices/{id}/model` payload. A payload that is not a ZDeviceModelMessage is ignored.
   * @returns a promise that settles once this payload is dealt with (its install finished or was aborted); it never
   * rejects.
   */
  async receive(payload: Buffer | string): Promise<void> {
    if (payload.length === 0) {
      this.abortRunning();
      this.installed = null;
      this.lastFinal = null;
      return;
    }
    const parsed = ZDeviceModelMessage.safeParse(parseJson(payload.toString()));
    if (!parsed.success) return;
    const message = parsed.data;
    if (this.running && isSamePair(this.running.message, message)) return;
    this.abortRunning();
    if (this.lastFinal && isSamePair(this.lastFinal, message)) {
      this.o.publishState(this.lastFinal);
      return;
    }
    await this.install(message);
  }

  /** The model the device holds, or null (none yet, or removed by an empty message). A failed install keeps the old one. */
  installedModel(): TInstalledModel | null {
    return this.installed && { ...this.installed };
  }

  /** Aborts a running install without reporting it (the device stops). */
  stop(): void {
    this.abortRunning();
  }

  private async install(message: TDeviceModelMessage): Promise<void> {
    const abort = new AbortController();
    const run = { message, abort };
    this.running = run;
    const corrupt = this.o.fault === 'corrupt-always' || (this.o.fault === 'corrupt-once' && !this.hasCorrupted);
    const final = await installModel(message, {
      tangramId: this.o.tangramId,
      secret: this.o.secret,
      publishState: this.o.publishState,
      signal: abort.signal,
      corrupt,
      progressMinIntervalMs: this.o.progressMinIntervalMs,
    });
    if (this.running === run) this.running = null;
    if (!final) return;
    this.hasCorrupted ||= corrupt;
    this.lastFinal = final;
    if (final.state === 'installed') {
      const { deploymentId, attempt, modelId, revision, sha256, sizeBytes } = message;
      this.installed = { deploymentId, attempt, modelId, revision, sha256, bytes: sizeBytes };
      this.o.counters.modelsInstalled += 1;
    } else {
      this.o.counters.modelsFailed += 1;
    }
  }

  private abortRunning(): void {
    this.running?.abort.abort();
    this.running = null;
  }
}

function isSamePair(a: { deploymentId: number; attempt: number }, b: { deploymentId: number; attempt: number }): boolean {
  return a.deploymentId === b.deploymentId && a.attempt === b.attempt;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
