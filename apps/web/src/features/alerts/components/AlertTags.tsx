/** Level and state tags of an alert (level colours as in the statistics charts). */
import type { TAlertLevel, TAlertState } from '@tessera/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { LEVEL_COLORS } from '../model/chartOptions';

/** The alert's level as a coloured tag. */
export function LevelTag({ level }: { level: TAlertLevel }) {
  const { t } = useTranslation();
  return (
    <Tag color={LEVEL_COLORS[level]} data-level={level}>
      {t(`alerts.level.${level}`)}
    </Tag>
  );
}

const STATE_COLORS: Record<TAlertState, string> = { open: 'red', acknowledged: 'gold', resolved: 'green' };

/** The alert's state as a tag. */
export function StateTag({ state, testId }: { state: TAlertState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLORS[state]} data-testid={testId} data-state={state}>
      {t(`alerts.state.${state}`)}
    </Tag>
  );
}
