/**
 * The engine's shared types: what its decisions need (collaborators, clock) and what one evaluation of one rule for
 * one device is. Here so that the files that decide (outcome.ts) and act (fire.ts) depend on them, not on each other.
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import type { TCommand } from '../device-control/command-channel.js';
import type { TIngestDevice } from '../ingest/directory.js';
import type { TRuleNotifier } from '../notifications/types.js';
import type { AlertRefresher } from './flows/alert-refresher.js';
import type { TCompiledRule } from './compile-program.js';
import type { TRuleRuntime } from './device-state.js';
import type { TEvalFrame } from './frame.js';
import type { TProjectRules, TRuleUnit } from './rule-set.js';
import type { TTruth } from './truth.js';

/** What the engine's decisions need. */
export interface TEngineDeps {
  db: Db;
  log: Logger;
  /**
   * Opens or counts on alerts: the raises of concurrent evaluations go to the database together, one statement
   * (one commit) for all (flows/alert-refresher.ts).
   */
  alerts: AlertRefresher;
  /** Server time (ms) for alerts, intervals and flapping; injectable so tests need not wait. */
  now: () => number;
  notifier: TRuleNotifier;
  /** Publishes an alert's new state on the live channel (coalesced, best effort). */
  publishAlert(alertId: number): void;
  /** Sends a device command (fire and forget). */
  sendCommand(device: TIngestDevice, ruleName: string, command: TCommand): void;
}

/** One evaluation of one rule for one device. */
export interface TEvaluation {
  rules: TProjectRules;
  unit: TRuleUnit;
  rule: TCompiledRule;
  runtime: TRuleRuntime;
  device: TIngestDevice;
  frame: TEvalFrame;
  truth: TTruth;
  /** The rule's clear timer (`clear_after_s`) at this evaluation; null when the rule has none. */
  clearTruth: TTruth | null;
}
