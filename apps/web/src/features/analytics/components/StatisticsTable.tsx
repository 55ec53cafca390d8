/**
 * The statistics table of the compared series (docs/analytics.md): count, min, max, average, standard deviation and
 * the 5th/50th/95th percentiles of each device × key over the range. A series summarised from hourly averages (too
 * many points) is marked, and what that means is said in its tooltip.
 */
import type { TSeriesStatistics } from '@tessera/contracts';
import { Table, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatValues } from '../../devices/model/format';
import type { TComparedSeries } from '../model/compare';

const FIGURES = ['min', 'max', 'avg', 'stddev', 'p5', 'p50', 'p95'] as const;

/** Props: the compared series and their summaries (matched by Tangram ID and key). */
export function StatisticsTable({
  series,
  stats,
  loading,
}: {
  series: readonly TComparedSeries[];
  stats: readonly TSeriesStatistics[] | undefined;
  loading: boolean;
}) {
  const { t, i18n } = useTranslation();
  const byId = new Map((stats ?? []).map((s) => [`${s.tangramId}/${s.key}`, s]));
  const rows = series.map((s) => ({ ...s, id: `${s.tangramId}/${s.key}`, stats: byId.get(`${s.tangramId}/${s.key}`) }));
  const number = (v: number | null | undefined) => (v === null || v === undefined ? '—' : formatValues([v], i18n.language));
  return (
    <Table
      size="small"
      rowKey="id"
      loading={loading}
      pagination={false}
      scroll={{ x: true }}
      dataSource={rows}
      data-testid="analytics-stats"
      columns={[
        {
          title: t('analytics.stats.series'),
          dataIndex: 'label',
          render: (label: string, row) => (
            <span>
              {label}
              {row.unit ? ` (${row.unit})` : ''}
              {row.stats?.basis === 'hourly' && (
                <Tooltip title={t('analytics.stats.hourlyHelp')}>
                  <Tag style={{ marginInlineStart: 8 }} data-testid="analytics-stats-hourly">
                    {t('analytics.stats.hourly')}
                  </Tag>
                </Tooltip>
              )}
            </span>
          ),
        },
        { title: t('analytics.stats.count'), key: 'count', align: 'right', render: (_, row) => row.stats?.count ?? '—' },
        ...FIGURES.map((f) => ({
          title: t(`analytics.stats.${f}`),
          key: f,
          align: 'right' as const,
          render: (_: unknown, row: (typeof rows)[number]) => number(row.stats?.[f]),
        })),
      ]}
    />
  );
}
