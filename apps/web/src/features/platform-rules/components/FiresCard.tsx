/**
 * The fire history of a schedule rule (docs/platform-rules.md "Schedules"; `GET rules/{id}/fires`): each due time,
 * newest first, whether it was fired or missed (no replica ran within the grace window), and when it was claimed.
 */
import type { TFlowFire } from '@tessera/contracts';
import { Card, Empty, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useRuleFires } from '../api';

const time = (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm:ss');

/** The fires card of the flow editor (schedule rules only). */
export function FiresCard({ ruleId }: { ruleId: number }) {
  const { t } = useTranslation();
  const fires = useRuleFires(ruleId, true);
  return (
    <Card size="small" title={t('platformRules.fires.title')} data-testid="rule-fires">
      <Table<TFlowFire>
        rowKey="fire_at"
        size="small"
        loading={fires.isLoading}
        dataSource={fires.data?.data ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t('platformRules.fires.none')} /> }}
        onRow={(f) => ({ 'data-testid': `fire-row-${f.fire_at}` }) as never}
        columns={[
          { title: t('platformRules.fires.dueAt'), dataIndex: 'fire_at', render: time },
          {
            title: t('platformRules.fires.state'),
            dataIndex: 'state',
            render: (s: TFlowFire['state']) => (
              <Tag color={s === 'fired' ? 'green' : 'orange'} data-state={s}>
                {t(`platformRules.fires.states.${s}`)}
              </Tag>
            ),
          },
          { title: t('platformRules.fires.claimedAt'), dataIndex: 'claimed_at', render: time },
        ]}
      />
    </Card>
  );
}
