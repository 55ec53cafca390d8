/**
 * The activation rate (spec §7 `statistics/activation-rate`), for vendors: the share of registered devices that
 * have reported, drawn per day of the page's range, and per product and per project at its end.
 */
import type { TActivationRate } from '@tessera/contracts';
import { Alert, Card, Empty, Segmented, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TChartOption } from '../../../lib/charts';
import { EChart } from '../../devices/components/EChart';
import type { TRange } from '../../devices/model/range';
import { useActivationRate } from '../api';
import { activationPercent } from '../model/compare';

/** The card over `range`. */
export function ActivationCard({ range }: { range: TRange }) {
  const { t } = useTranslation();
  const rate = useActivationRate(range, true);
  const [by, setBy] = useState<'product' | 'project'>('product');
  const option = useMemo<TChartOption | null>(
    () => (rate.data ? dailyOption(rate.data, t('analytics.activation.rate')) : null),
    [rate.data, t],
  );
  const groups = rate.data ? (by === 'product' ? rate.data.by_product : rate.data.by_project) : [];
  return (
    <Card size="small" title={t('analytics.activation.title')} data-testid="analytics-activation">
      {rate.isError && <Alert type="error" showIcon message={t('devices.loadFailed')} />}
      {rate.data && rate.data.by_product.length === 0 && <Empty description={t('analytics.activation.none')} />}
      {option && rate.data && rate.data.by_product.length > 0 && (
        <>
          <EChart testId="analytics-activation-chart" option={option} points={rate.data.by_day.length} height={240} />
          <Segmented
            value={by}
            onChange={(v) => setBy(v as 'product' | 'project')}
            options={[
              { value: 'product', label: t('analytics.activation.byProduct') },
              { value: 'project', label: t('analytics.activation.byProject') },
            ]}
            style={{ margin: '8px 0' }}
          />
          <Table
            size="small"
            rowKey="id"
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            dataSource={groups}
            data-testid="analytics-activation-table"
            columns={[
              { title: t(by === 'product' ? 'analytics.activation.product' : 'analytics.activation.project'), dataIndex: 'name' },
              { title: t('analytics.activation.registered'), dataIndex: 'registered', align: 'right' },
              { title: t('analytics.activation.activated'), dataIndex: 'activated', align: 'right' },
              {
                title: t('analytics.activation.rate'),
                key: 'rate',
                align: 'right',
                render: (_, g) => {
                  const pct = activationPercent(g);
                  return pct === null ? '—' : `${pct}%`;
                },
              },
            ]}
          />
        </>
      )}
    </Card>
  );
}

/** Rate per day (percent) as a line; the tooltip tells the counts behind it. */
function dailyOption(data: TActivationRate, rateName: string): TChartOption {
  return {
    animation: false,
    grid: { left: 48, right: 24, top: 16, bottom: 32 },
    tooltip: {
      trigger: 'axis',
      formatter: (params) => {
        const p = Array.isArray(params) ? params[0] : params;
        const day = data.by_day[p.dataIndex ?? 0];
        const pct = day ? activationPercent(day) : null;
        return day ? `${new Date(day.day).toLocaleDateString()}<br/>${rateName}: ${pct ?? '—'}% (${day.activated}/${day.registered})` : '';
      },
    },
    xAxis: { type: 'time' },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
    series: [{ type: 'line', name: rateName, step: 'end', data: data.by_day.map((d) => [d.day, activationPercent(d)]), showSymbol: true }],
  };
}
