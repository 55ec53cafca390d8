/**
 * alerts/statistics (spec §2, §7 `statistics`, `statistics/detail`): a period (default the last 7 days, at most
 * ALERT_RANGE_MAX_DAYS) kept in the URL, charts of the counts by level, project, product and per day (stacked by
 * level), and the per device and rule table, paged.
 */
import { ALERT_RANGE_MAX_DAYS, DEFAULT_PAGE_LIMIT, type TAlertDetailRow, type TAlertLevel } from '@tessera/contracts';
import { Alert, App, Card, Col, Empty, Row, Space, Statistic, Table, type TableColumnsType, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAlertDetail, useAlertStatistics } from '../api';
import { AlertChart } from '../components/AlertChart';
import { LevelTag } from '../components/AlertTags';
import { RangeField } from '../components/RangeField';
import { dailyStackOption, levelPieOption, namedBarOption } from '../model/chartOptions';
import { formatTime } from '../model/format';
import { lastDays, rangeFromParams } from '../model/range';

const DEFAULT_DAYS = 7;

/** The statistics page. */
export default function AlertsStatisticsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const [fallback] = useState(() => lastDays(Date.now(), DEFAULT_DAYS));
  const { range, problem } = rangeFromParams(params, fallback);
  const [page, setPage] = useState({ page: 1, limit: DEFAULT_PAGE_LIMIT });
  const utcOffsetMin = -new Date(range[1]).getTimezoneOffset();
  const q = { from: range[0], to: range[1] };
  const stats = useAlertStatistics({ ...q, utc_offset_min: utcOffsetMin }, problem === null);
  const detail = useAlertDetail({ ...q, ...page }, problem === null);
  const label = (l: TAlertLevel) => t(`alerts.level.${l}`);
  const s = stats.data;
  const options = useMemo(
    () =>
      s && {
        level: levelPieOption(s, (l) => t(`alerts.level.${l}`)),
        project: namedBarOption(s.by_project, t('alerts.field.alerts')),
        product: namedBarOption(s.by_product, t('alerts.field.alerts')),
        day: dailyStackOption(s, (l) => t(`alerts.level.${l}`)),
      },
    [s, t],
  );

  const columns: TableColumnsType<TAlertDetailRow> = [
    {
      title: t('alerts.field.device'),
      key: 'device',
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <span>{r.device.name}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.device.tangram_id}
          </Typography.Text>
        </Space>
      ),
    },
    { title: t('alerts.field.project'), key: 'project', render: (_, r) => r.project.name },
    { title: t('alerts.field.rule'), key: 'rule', render: (_, r) => `${r.rule.name} (${t(`alerts.ruleKind.${r.rule.kind}`)})` },
    { title: t('alerts.field.level'), key: 'level', render: (_, r) => <LevelTag level={r.level} /> },
    { title: t('alerts.field.alerts'), dataIndex: 'alerts', align: 'right' },
    { title: t('alerts.field.occurrences'), dataIndex: 'occurrences', align: 'right' },
    { title: t('alerts.field.lastSeen'), dataIndex: 'last_seen_at', render: (v: number) => formatTime(v) },
  ];

  const chart = (title: string, testId: string, option: Parameters<typeof AlertChart>[0]['option'] | undefined) => (
    <Card size="small" title={title}>
      {s && option && s.total > 0 ? (
        <AlertChart option={option} total={s.total} testId={testId} />
      ) : (
        <Empty description={t('alerts.statistics.empty')} />
      )}
    </Card>
  );

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('alerts.statistics.title')}
      </Typography.Title>
      <RangeField
        value={range}
        onChange={(next, clamped) => {
          if (clamped) void message.info(t('alerts.range.clamped', { days: ALERT_RANGE_MAX_DAYS }));
          setPage((p) => ({ ...p, page: 1 }));
          setParams({ from: String(next[0]), to: String(next[1]) });
        }}
      />
      {problem && (
        <Alert
          type="error"
          showIcon
          data-testid="alert-range-problem"
          message={t(`alerts.range.${problem === 'order' ? 'order' : 'tooLong'}`, { days: ALERT_RANGE_MAX_DAYS })}
        />
      )}
      {stats.isError && <Alert type="error" showIcon message={t('errors.loadFailed')} />}
      <Card size="small" loading={stats.isLoading && problem === null}>
        <Space size="large" wrap>
          <Statistic
            title={t('alerts.statistics.total')}
            value={s?.total ?? 0}
            valueStyle={{ fontWeight: 600 }}
            data-testid="alert-stats-total"
          />
          {(['alert', 'early_warning', 'remind'] as const).map((l) => (
            <Statistic key={l} title={label(l)} value={s?.by_level[l] ?? 0} data-testid={`alert-stats-${l}`} />
          ))}
        </Space>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={8}>
          {chart(t('alerts.statistics.byLevel'), 'alert-chart-level', options?.level)}
        </Col>
        <Col xs={24} lg={8}>
          {chart(t('alerts.statistics.byProject'), 'alert-chart-project', options?.project)}
        </Col>
        <Col xs={24} lg={8}>
          {chart(t('alerts.statistics.byProduct'), 'alert-chart-product', options?.product)}
        </Col>
        <Col span={24}>{chart(t('alerts.statistics.byDay'), 'alert-chart-day', options?.day)}</Col>
      </Row>
      <Card size="small" title={t('alerts.statistics.detail')}>
        <Table<TAlertDetailRow>
          data-testid="alert-detail-table"
          rowKey={(r) => `${r.device.id}-${r.rule.kind}-${r.rule.id}-${r.rule.index}-${r.level}`}
          size="small"
          columns={columns}
          dataSource={detail.data?.data ?? []}
          loading={detail.isFetching}
          locale={{ emptyText: <Empty description={t('alerts.statistics.empty')} /> }}
          pagination={{
            current: page.page,
            pageSize: page.limit,
            total: detail.data?.total_items ?? 0,
            showSizeChanger: true,
            onChange: (p, limit) => setPage({ page: p, limit }),
          }}
        />
      </Card>
    </Space>
  );
}
