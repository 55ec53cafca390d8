/**
 * Reports a device publishes beside telemetry and status (docs/protocol.md "AI models": `devices/{id}/model/state`),
 * handed from the broker (embedded hooks, or the external broker's ingest connections) to the module that owns them.
 * The broker starts before the modules, so the owner registers its listener afterwards.
 */
import type { TIngestDevice } from './directory.js';

/**
 * Handles one report of `device` (identified by its MQTT login, or by the topic on an external broker). Resolves once
 * handled — stored, or refused and logged — so the QoS 1 PUBACK follows; rejects when it could not be stored (the
 * database is unavailable): no PUBACK, the device sends it again.
 */
export type TDeviceReportListener = (device: TIngestDevice, payload: Buffer) => Promise<void>;

/** The reports the broker hands on, by kind. */
export interface TDeviceReports {
  /** `devices/{id}/model/state`. */
  modelState: TDeviceReportListener;
  /** Sets the listener of model-state reports; until one is set they are acknowledged and dropped. */
  setModelStateListener(listener: TDeviceReportListener): void;
}

/** A router whose listeners are set after the broker starts. */
export function createDeviceReports(): TDeviceReports {
  let modelState: TDeviceReportListener | null = null;
  return {
    modelState: (device, payload) => (modelState ? modelState(device, payload) : Promise.resolve()),
    setModelStateListener(listener) {
      modelState = listener;
    },
  };
}
