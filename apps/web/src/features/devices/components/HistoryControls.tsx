/**
 * Controls of the history chart: key, range (presets 1 h / 24 h / 7 d / 30 d, at most HISTORY_RANGE_MAX_DAYS —
 * longer ranges are greyed out and the limit is said under the picker) and aggregation function.
 */
import { HISTORY_RANGE_MAX_DAYS, type TAggFn } from '@tessera/contracts';
import { DatePicker, Select, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { clampRange, isDayDisabled, RANGE_PRESETS, type TRange } from '../model/range';

/** The functions offered on the chart (sum and count are API-only). */
export const CHART_FNS = ['avg', 'min', 'max'] as const satisfies readonly TAggFn[];

/** Props: current selections and their change handlers; `onClamped` tells that a chosen range was shortened. */
export interface THistoryControlsProps {
  keys: readonly { key: string; name: string }[];
  selectedKey: string | undefined;
  onKey: (key: string) => void;
  range: TRange;
  onRange: (range: TRange, clamped: boolean) => void;
  fn: TAggFn;
  onFn: (fn: TAggFn) => void;
}

/** Key select, range picker and fn select in one row. */
export function HistoryControls(p: THistoryControlsProps) {
  const { t } = useTranslation();
  const now = Date.now();
  return (
    <Space wrap align="start">
      <Select
        data-testid="history-key"
        value={p.selectedKey}
        onChange={p.onKey}
        options={p.keys.map((k) => ({ value: k.key, label: k.name }))}
        style={{ width: 200 }}
      />
      <Space direction="vertical" size={2}>
        <DatePicker.RangePicker
          data-testid="history-range"
          showTime
          allowClear={false}
          value={[dayjs(p.range[0]), dayjs(p.range[1])]}
          presets={RANGE_PRESETS.map((preset) => ({
            label: t(`devices.history.preset.${preset.key}`),
            value: () => [dayjs().subtract(preset.ms, 'ms'), dayjs()] as [Dayjs, Dayjs],
          }))}
          disabledDate={(day, info) => isDayDisabled(day.startOf('day').valueOf(), info?.from?.valueOf(), now)}
          onChange={(v) => {
            if (!v?.[0] || !v[1]) return;
            const start = v[0].valueOf();
            const end = v[1].valueOf();
            const clamped = clampRange(start, end);
            p.onRange(clamped, clamped[0] !== start);
          }}
        />
        <Typography.Text type="secondary" data-testid="history-range-limit">
          {t('devices.history.rangeLimit', { days: HISTORY_RANGE_MAX_DAYS })}
        </Typography.Text>
      </Space>
      <Select<TAggFn>
        data-testid="history-fn"
        value={p.fn}
        onChange={p.onFn}
        options={CHART_FNS.map((fn) => ({ value: fn, label: t(`devices.history.fn.${fn}`) }))}
        style={{ width: 120 }}
      />
    </Space>
  );
}
