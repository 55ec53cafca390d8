/** A platform rule's status (spec §4) as a coloured tag. */
import type { TPlatformRuleStatus } from '@tessera/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<TPlatformRuleStatus, string> = {
  pending: 'default',
  good: 'blue',
  error: 'red',
  running: 'green',
  queuing: 'gold',
  stopping: 'orange',
  stopped: 'default',
};

/** The status tag. */
export function StatusTag({ status, testId }: { status: TPlatformRuleStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[status]} data-testid={testId} data-status={status}>
      {t(`platformRules.statuses.${status}`)}
    </Tag>
  );
}
