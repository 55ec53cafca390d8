/**
 * History of a key whose values are not numbers (docs/decisions/telemetry.md "Values that are not numbers"): such a
 * key has no rollups, so its raw points of the chosen range (the last HISTORY_RANGE_DAYS of it at most, the raw
 * call's bound) are listed newest first; a string or boolean key with few distinct values also gets a state
 * timeline (a step line over the values as categories).
 */
import { DAY_MS, HISTORY_RANGE_DAYS, type TTelemetryValue, type TTelemetryValueType } from '@tessera/contracts';
import { Alert, Empty, Space, Spin, Table, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TChartOption } from '../../../lib/charts';
import { useRawValues } from '../api';
import { formatLocalTime, formatTelemetryValue } from '../model/format';
import type { TRange } from '../model/range';
import { EChart } from './EChart';

/** At most this many distinct values are drawn as a timeline (more would be an unreadable axis). */
const TIMELINE_MAX_STATES = 12;

/** Props: the device, the key with its name and type, and the picked range. */
export interface TValueHistoryProps {
  tangramId: string;
  sensor: { key: string; name: string; value_type: TTelemetryValueType };
  range: TRange;
}

/** The table (and timeline) of one non-numeric key. */
export function ValueHistory({ tangramId, sensor, range }: TValueHistoryProps) {
  const { t } = useTranslation();
  const startTs = Math.max(range[0], range[1] - HISTORY_RANGE_DAYS * DAY_MS);
  const rows = useRawValues({ tangramId, key: sensor.key, startTs, endTs: range[1] });
  const yes = t('devices.telemetry.true');
  const no = t('devices.telemetry.false');
  const points = useMemo(
    () =>
      (rows.data ?? [])
        .filter((r): r is typeof r & { value: TTelemetryValue } => r.value !== undefined)
        .map((r) => ({ ts: r.ts, text: formatTelemetryValue(r.value, { true: yes, false: no }) })),
    [rows.data, yes, no],
  );
  const timeline = useMemo((): TChartOption | null => {
    if (sensor.value_type === 'json' || points.length === 0) return null;
    const states = [...new Set(points.map((p) => p.text))].sort();
    if (states.length > TIMELINE_MAX_STATES) return null;
    return {
      animation: false,
      grid: { left: 96, right: 24, top: 16, bottom: 32 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'time', min: startTs, max: range[1] },
      yAxis: { type: 'category', data: states },
      series: [{ type: 'line', step: 'end', symbol: 'circle', data: points.map((p) => [p.ts, p.text]) }],
    };
  }, [points, sensor.value_type, startTs, range]);

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="value-history">
      <Typography.Text type="secondary" data-testid="value-history-note">
        {t('devices.history.valuesNote', {
          key: sensor.name,
          type: t(`sensors.valueTypes.${sensor.value_type}`),
          days: HISTORY_RANGE_DAYS,
        })}
      </Typography.Text>
      {rows.isFetching && <Spin size="small" />}
      {rows.isError && <Alert type="error" showIcon message={t('devices.loadFailed')} />}
      {rows.isSuccess && points.length === 0 && <Empty data-testid="history-empty" description={t('devices.history.empty')} />}
      {timeline && (
        <div>
          <Typography.Text strong>{t('devices.history.timeline')}</Typography.Text>
          <EChart testId="value-timeline" option={timeline} points={points.length} height={Math.min(320, 80 + 28 * 4)} />
        </div>
      )}
      {points.length > 0 && (
        <Table
          size="small"
          rowKey="ts"
          data-testid="value-history-table"
          dataSource={[...points].reverse()}
          pagination={{ pageSize: 20, showSizeChanger: false }}
          onRow={(p) => ({ 'data-testid': `value-row-${p.ts}` }) as object}
          columns={[
            { title: t('devices.history.time'), dataIndex: 'ts', render: (ts: number) => formatLocalTime(ts), width: 200 },
            {
              title: t('devices.history.value'),
              dataIndex: 'text',
              render: (text: string) => <span style={{ overflowWrap: 'anywhere' }}>{text}</span>,
            },
          ]}
        />
      )}
    </Space>
  );
}
