/**
 * The platform-telemetry page (spec §2 `platform-telemetry` → `instance`; docs/platform-telemetry.md): the tenant's
 * derived series with their latest values (read again every few seconds), searchable and paged; new and edit in a
 * drawer with the formula editor; delete after a confirmation; the chosen one's value and history over a range.
 */
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { type TPlatformTelemetry, DEFAULT_PAGE_LIMIT } from '@tessera/contracts';
import { Alert, Button, Card, Empty, Input, message, Popconfirm, Space, Statistic, Table, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { TChartOption } from '../../../lib/charts';
import { EChart } from '../../devices/components/EChart';
import { HistoryRangePicker } from '../../devices/components/HistoryRangePicker';
import { formatLocalTime, formatValues } from '../../devices/model/format';
import { defaultRange, type TRange } from '../../devices/model/range';
import { useDeletePlatformTelemetry, usePlatformTelemetry, usePlatformTelemetryList, usePlatformTelemetrySeries } from '../api';
import { EditorDrawer } from '../components/EditorDrawer';

/** The page. */
export default function PlatformTelemetryPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [q, setQ] = useState<string | undefined>();
  const [page, setPage] = useState(1);
  const [editor, setEditor] = useState<{ open: boolean; editing: TPlatformTelemetry | null }>({ open: false, editing: null });
  const list = usePlatformTelemetryList({ page, limit: DEFAULT_PAGE_LIMIT, q });
  const remove = useDeletePlatformTelemetry();
  const selectedId = params.get('id') ? Number(params.get('id')) : undefined;
  const select = (id: number | undefined) => setParams(id ? { id: String(id) } : {}, { replace: true });
  // The chosen one's detail is kept current by the live channel; its row shows the same (the newer of the two reads).
  const chosen = usePlatformTelemetry(selectedId).data;
  const fresh = (pt: TPlatformTelemetry) => (chosen?.id === pt.id && (chosen.latest_ts ?? 0) > (pt.latest_ts ?? 0) ? chosen : pt);
  const value = (row: TPlatformTelemetry) => {
    const pt = fresh(row);
    return pt.latest_value === null ? '—' : `${formatValues([pt.latest_value], i18n.language)}${pt.unit ? ` ${pt.unit}` : ''}`;
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card
        size="small"
        title={t('platformTelemetry.title')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditor({ open: true, editing: null })} data-testid="pt-new">
            {t('platformTelemetry.new')}
          </Button>
        }
      >
        <Input.Search
          allowClear
          placeholder={t('platformTelemetry.search')}
          onSearch={(v) => {
            setQ(v.trim() || undefined);
            setPage(1);
          }}
          style={{ maxWidth: 320, marginBottom: 12 }}
          data-testid="pt-search"
        />
        <Table<TPlatformTelemetry>
          size="small"
          rowKey="id"
          loading={list.isLoading}
          dataSource={list.data?.data}
          locale={{ emptyText: <Empty description={q ? t('platformTelemetry.noMatch') : t('platformTelemetry.empty')} /> }}
          pagination={{
            current: page,
            pageSize: DEFAULT_PAGE_LIMIT,
            total: list.data?.total_items ?? 0,
            onChange: setPage,
            hideOnSinglePage: true,
          }}
          onRow={(pt) => ({ onClick: () => select(pt.id), style: { cursor: 'pointer' } })}
          rowClassName={(pt) => (pt.id === selectedId ? 'ant-table-row-selected' : '')}
          columns={[
            {
              title: t('platformTelemetry.name'),
              dataIndex: 'name',
              render: (name: string, pt) => <span data-testid={`pt-row-${pt.id}`}>{name}</span>,
            },
            {
              title: t('platformTelemetry.formula'),
              dataIndex: 'formula',
              render: (f: string) => <Typography.Text code>{f}</Typography.Text>,
            },
            {
              title: t('platformTelemetry.latest'),
              key: 'latest',
              align: 'right',
              render: (_, pt) =>
                pt.latest_error && fresh(pt).latest_value === null ? (
                  <Tag color="warning" title={pt.latest_error}>
                    {t('platformTelemetry.waiting')}
                  </Tag>
                ) : (
                  <span data-testid={`pt-value-${pt.id}`}>{value(pt)}</span>
                ),
            },
            {
              title: t('platformTelemetry.at'),
              key: 'at',
              render: (_, pt) => (fresh(pt).latest_ts ? formatLocalTime(fresh(pt).latest_ts) : '—'),
            },
            {
              title: '',
              key: 'actions',
              width: 100,
              render: (_, pt) => (
                <Space onClick={(e) => e.stopPropagation()}>
                  <Button
                    size="small"
                    icon={<EditOutlined />}
                    aria-label={t('platformTelemetry.editShort')}
                    onClick={() => setEditor({ open: true, editing: pt })}
                    data-testid={`pt-edit-${pt.id}`}
                  />
                  <Popconfirm
                    title={t('platformTelemetry.deleteTitle', { name: pt.name })}
                    description={t('platformTelemetry.deleteContent')}
                    okText={t('platformTelemetry.delete')}
                    okButtonProps={{ danger: true, 'data-testid': 'pt-delete-confirm' } as never}
                    onConfirm={() =>
                      remove.mutateAsync(pt.id).then(() => {
                        if (pt.id === selectedId) select(undefined);
                      })
                    }
                  >
                    <Button
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('platformTelemetry.delete')}
                      data-testid={`pt-delete-${pt.id}`}
                    />
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      {selectedId !== undefined && <DetailCard id={selectedId} />}
      <EditorDrawer
        open={editor.open}
        editing={editor.editing}
        onClose={() => setEditor({ open: false, editing: null })}
        onSaved={(saved) => {
          setEditor({ open: false, editing: null });
          select(saved.id);
          void message.success(t('platformTelemetry.saved'));
        }}
      />
    </Space>
  );
}

/** The chosen platform telemetry: latest value and time (or why there is none) and its history over a range. */
function DetailCard({ id }: { id: number }) {
  const { t, i18n } = useTranslation();
  const pt = usePlatformTelemetry(id);
  const [range, setRange] = useState<TRange>(() => defaultRange(Date.now()));
  const series = usePlatformTelemetrySeries(id, range);
  // A new latest value is a new point of the series: read it again then, not only every minute.
  const latestTs = pt.data?.latest_ts;
  const refetchSeries = series.refetch;
  useEffect(() => {
    if (latestTs) void refetchSeries();
  }, [latestTs, refetchSeries]);
  const option = useMemo<TChartOption>(
    () => ({
      animation: false,
      grid: { left: 56, right: 24, top: 24, bottom: 64 },
      tooltip: { trigger: 'axis', valueFormatter: (v) => formatValues([typeof v === 'number' ? v : null], i18n.language) },
      xAxis: { type: 'time', min: range[0], max: range[1] },
      yAxis: { type: 'value', scale: true, name: pt.data?.unit || undefined },
      dataZoom: [{ type: 'inside' }, { type: 'slider' }],
      series: [
        {
          type: 'line',
          name: pt.data?.name ?? '',
          data: (series.data?.points ?? []).map((p) => [p.ts, p.vs[0] ?? null]),
          showSymbol: (series.data?.points.length ?? 0) < 60,
        },
      ],
    }),
    [series.data, range, pt.data?.unit, pt.data?.name, i18n.language],
  );
  if (pt.isError) return <Alert type="error" showIcon message={t('platformTelemetry.gone')} />;
  if (!pt.data) return null;
  return (
    <Card size="small" title={pt.data.name} data-testid="pt-detail">
      <Space align="start" wrap size="large">
        <Statistic
          title={
            pt.data.latest_ts
              ? t('platformTelemetry.latestAt', { time: formatLocalTime(pt.data.latest_ts) })
              : t('platformTelemetry.latest')
          }
          value={pt.data.latest_value === null ? '—' : formatValues([pt.data.latest_value], i18n.language)}
          suffix={pt.data.unit}
          valueStyle={{ fontSize: 32 }}
          data-testid="pt-detail-value"
        />
        <div>
          <Typography.Text type="secondary">{t('platformTelemetry.formula')}</Typography.Text>
          <div>
            <Typography.Text code>{pt.data.formula}</Typography.Text> × {pt.data.coefficient}
          </div>
          <Typography.Text type="secondary">{pt.data.devices.map((d) => `${d.alias} = ${d.name}`).join(' · ')}</Typography.Text>
        </div>
        <HistoryRangePicker value={range} onChange={(next) => setRange(next)} testId="pt-range" />
      </Space>
      {pt.data.latest_error && (
        <Alert
          type="warning"
          showIcon
          message={t('platformTelemetry.noValue', { reason: pt.data.latest_error })}
          style={{ margin: '12px 0' }}
        />
      )}
      <EChart testId="pt-chart" option={option} points={series.data?.points.length ?? 0} height={300} />
    </Card>
  );
}
