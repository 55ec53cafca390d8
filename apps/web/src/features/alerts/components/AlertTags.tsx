/**
 * Level and state tags of an alert: solid tags in the hues of the statistics charts, dark enough that their white text
 * meets WCAG AA contrast (4.5:1); the charts' own colours (and antd's light gold and green tags) do not.
 */
import type { TAlertLevel, TAlertState } from '@tessera/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const LEVEL_TAG_COLORS: Record<TAlertLevel, string> = { remind: '#0958d9', early_warning: '#ad4e00', alert: '#cf1322' };

/** The alert's level as a coloured tag. */
export function LevelTag({ level }: { level: TAlertLevel }) {
  const { t } = useTranslation();
  return (
    <Tag color={LEVEL_TAG_COLORS[level]} data-level={level}>
      {t(`alerts.level.${level}`)}
    </Tag>
  );
}

const STATE_COLORS: Record<TAlertState, string> = { open: '#cf1322', acknowledged: '#874d00', resolved: '#237804' };

/** The alert's state as a tag. */
export function StateTag({ state, testId }: { state: TAlertState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLORS[state]} data-testid={testId} data-state={state}>
      {t(`alerts.state.${state}`)}
    </Tag>
  );
}
