/**
 * The platform-rule alerts on the rule list (spec §7 `/rule-engine/v1` alerts summary and dashboard): the last 7
 * days' count, how many are still active, by level and by rule (each rule linking to its editor), and the latest
 * alerts with their level, state, rule and device; a link opens the alerts history filtered to platform rules, where
 * acknowledge and resolve are.
 */
import { ALERT_LEVELS, type TAlert } from '@tessera/contracts';
import { Card, Empty, Flex, Space, Statistic, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LevelTag, StateTag } from '../../alerts/components/AlertTags';
import { formatTime } from '../../alerts/model/format';
import { useLatestPlatformAlerts, usePlatformAlertSummary } from '../api';

const SUMMARY_DAYS = 7;
const LATEST_SHOWN = 5;

/** The summary card. */
export function PlatformAlertsCard() {
  const { t } = useTranslation();
  const summary = usePlatformAlertSummary(SUMMARY_DAYS);
  const latest = useLatestPlatformAlerts();
  const s = summary.data;
  return (
    <Card
      title={t('platformRules.alerts.title', { days: SUMMARY_DAYS })}
      size="small"
      data-testid="platform-alerts"
      loading={summary.isLoading}
      extra={
        <Link to="/alerts/history?rule_kind=platform" data-testid="platform-alerts-history">
          {t('platformRules.alerts.viewAll')}
        </Link>
      }
    >
      {s && s.total === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('platformRules.alerts.none')} />
      ) : (
        <Flex vertical gap={12}>
          <Space size="large" wrap>
            <Statistic title={t('platformRules.alerts.total')} value={s?.total ?? 0} data-testid="platform-alerts-total" />
            <Statistic title={t('platformRules.alerts.active')} value={s?.active ?? 0} data-testid="platform-alerts-active" />
            <Space size={4} wrap>
              {ALERT_LEVELS.map((level) => (
                <Space key={level} size={2} data-testid={`platform-alerts-level-${level}`}>
                  <LevelTag level={level} />
                  {s?.by_level[level] ?? 0}
                </Space>
              ))}
            </Space>
          </Space>
          {(s?.by_rule.length ?? 0) > 0 && (
            <Typography.Text type="secondary">
              {t('platformRules.alerts.byRule')}{' '}
              {s?.by_rule.map((r, i) => (
                <span key={r.id}>
                  {i > 0 && ' · '}
                  <Link to={`/platform_rule/detail/${r.id}`} data-testid={`platform-alerts-rule-${r.id}`}>
                    {r.name}
                  </Link>{' '}
                  {r.count}
                </span>
              ))}
            </Typography.Text>
          )}
          <Table<TAlert>
            size="small"
            rowKey="id"
            pagination={false}
            loading={latest.isLoading}
            dataSource={(latest.data?.data ?? []).slice(0, LATEST_SHOWN)}
            columns={[
              { title: t('alerts.field.level'), key: 'level', width: 110, render: (_, a) => <LevelTag level={a.level} /> },
              { title: t('alerts.field.state'), key: 'state', width: 100, render: (_, a) => <StateTag state={a.state} /> },
              { title: t('platformRules.alerts.rule'), key: 'rule', render: (_, a) => a.rule.name },
              { title: t('alerts.field.message'), dataIndex: 'message', ellipsis: true },
              { title: t('alerts.field.device'), key: 'device', render: (_, a) => a.device.name },
              { title: t('alerts.field.firstSeen'), dataIndex: 'first_seen_at', width: 170, render: (v: number) => formatTime(v) },
            ]}
          />
        </Flex>
      )}
    </Card>
  );
}
