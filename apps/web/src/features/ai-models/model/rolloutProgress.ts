/**
 * What a rollout's pages show of its progress (contracts model-deployments.ts): the counts per state summed into
 * installed / failed / in progress, the shares of the overall bar, whether anything is still moving (the pages
 * refresh every {@link ROLLOUT_REFRESH_MS} until it is not) and each state's tag colour. Pure, so it is unit-tested.
 */
import type { TModelDeploymentState, TRolloutCounts } from '@tessera/contracts';

/** How often a rollout's page reloads while a device is pending or downloading (ms). */
export const ROLLOUT_REFRESH_MS = 1_000;

/** A rollout's counts summed for display; `target` leaves out superseded devices (no longer the rollout's to install). */
export interface TRolloutSummary {
  installed: number;
  failed: number;
  /** Pending plus downloading. */
  inProgress: number;
  superseded: number;
  /** Every device of the rollout. */
  total: number;
  /** The devices still meant to install this revision: total minus superseded. */
  target: number;
  /** Whole percent of `target` installed (0 when there is no target). */
  installedPercent: number;
  /** Whole percent of `target` failed; with `installedPercent` never over 100. */
  failedPercent: number;
}

/** Sums `counts` for the pages (see {@link TRolloutSummary}). */
export function rolloutSummary(counts: TRolloutCounts): TRolloutSummary {
  const inProgress = counts.pending + counts.downloading;
  const target = counts.installed + counts.failed + inProgress;
  const total = target + counts.superseded;
  const installedPercent = target > 0 ? Math.floor((counts.installed / target) * 100) : 0;
  const failedPercent = target > 0 ? Math.min(100 - installedPercent, Math.round((counts.failed / target) * 100)) : 0;
  return {
    installed: counts.installed,
    failed: counts.failed,
    inProgress,
    superseded: counts.superseded,
    total,
    target,
    installedPercent,
    failedPercent,
  };
}

/** True when no device of the rollout is pending or downloading: every state is final until someone retries. */
export function isRolloutSettled(counts: TRolloutCounts): boolean {
  return counts.pending + counts.downloading === 0;
}

/** True for the states a device moves on from by itself (pending, downloading). */
export function isStateActive(state: TModelDeploymentState): boolean {
  return state === 'pending' || state === 'downloading';
}

/**
 * The TanStack Query `refetchInterval` of a rollout query: {@link ROLLOUT_REFRESH_MS} while `counts` (the last answer) shows a
 * device moving or is not known yet, false once settled.
 */
export function rolloutRefreshMs(counts: TRolloutCounts | undefined): number | false {
  return counts && isRolloutSettled(counts) ? false : ROLLOUT_REFRESH_MS;
}

/** The antd Tag colour of each state. */
export const STATE_COLOURS: Record<TModelDeploymentState, string> = {
  pending: 'default',
  downloading: 'processing',
  installed: 'success',
  failed: 'error',
  superseded: 'purple',
};

/** A device's download as a whole percent: its `progress` (0…1) while downloading, 100 once installed, else 0. */
export function devicePercent(d: { state: TModelDeploymentState; progress: number }): number {
  if (d.state === 'installed') return 100;
  if (d.state !== 'downloading') return 0;
  return Math.max(0, Math.min(100, Math.floor(d.progress * 100)));
}

/** A SHA-256 shortened for a table or header (its first 12 hex digits and an ellipsis). */
export const shortSha = (sha: string) => `${sha.slice(0, 12)}…`;
