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

/** The figures of one series; `basis` only for a device's key (a platform telemetry's are always of its points). */
export type TSeriesFigures = Omit<TSeriesStatistics, 'tangramId' | 'key' | 'basis'> & { basis?: TSeriesStatistics['basis'] };

/** Props: the compared series and their figures by series id. */
export function StatisticsTable({
  series,
  stats,
  loading,
}: {
  series: readonly TComparedSeries[];
  stats: ReadonlyMap<string, TSeriesFigures>;
  loading: boolean;
}) {
  const { t, i18n } = useTranslation();
  const rows = series.map((s) => ({ ...s, stats: stats.get(s.id) }));
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
