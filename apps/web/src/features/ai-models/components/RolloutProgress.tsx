/**
 * How far a rollout is, drawn (contracts model-deployments.ts): a device state as a coloured tag, the overall bar
 * (installed in green, failed in red after it, out of the devices still meant to install) and the compact
 * "installed · failed · in progress" line of the rollout list.
 */
import type { TModelDeploymentState, TRolloutCounts } from '@tessera/contracts';
import { Flex, Progress, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { rolloutSummary, STATE_COLOURS } from '../model/rolloutProgress';

/** A state's tag, `data-state` holding the state's code; `count` follows the name when given. */
export function RolloutStateTag({ state, count, testId }: { state: TModelDeploymentState; count?: number; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLOURS[state]} data-state={state} data-testid={testId}>
      {t(`aiModels.rolloutStates.${state}`)}
      {count !== undefined && ` ${count}`}
    </Tag>
  );
}

/**
 * The overall bar of a rollout: `installed / target` as its text, `data-installed`, `data-failed`, `data-target`
 * and `data-percent` (installed share) for tests. `small` for a table cell.
 */
export function RolloutProgressBar({ counts, small, testId }: { counts: TRolloutCounts; small?: boolean; testId?: string }) {
  const { token } = theme.useToken();
  const s = rolloutSummary(counts);
  const status = s.inProgress > 0 ? 'active' : s.failed > 0 ? 'exception' : s.target > 0 && s.installed === s.target ? 'success' : 'normal';
  return (
    <Progress
      percent={s.installedPercent + s.failedPercent}
      success={{ percent: s.installedPercent, strokeColor: token.colorSuccess }}
      strokeColor={token.colorError}
      status={status}
      size={small ? 'small' : 'default'}
      format={() => `${s.installed} / ${s.target}`}
      data-testid={testId}
      data-installed={s.installed}
      data-failed={s.failed}
      data-target={s.target}
      data-percent={s.installedPercent}
    />
  );
}

/** The compact line of a rollout in a list: installed, failed, in progress. */
export function RolloutCountsText({ counts }: { counts: TRolloutCounts }) {
  const { t } = useTranslation();
  const s = rolloutSummary(counts);
  return (
    <Flex gap={8} wrap>
      <Typography.Text type="success">{t('aiModels.rollouts.installedCount', { n: s.installed })}</Typography.Text>
      <Typography.Text type={s.failed > 0 ? 'danger' : 'secondary'}>{t('aiModels.rollouts.failedCount', { n: s.failed })}</Typography.Text>
      <Typography.Text type="secondary">{t('aiModels.rollouts.inProgressCount', { n: s.inProgress })}</Typography.Text>
    </Flex>
  );
}
