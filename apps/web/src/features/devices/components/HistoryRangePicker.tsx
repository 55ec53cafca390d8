/**
 * The history range picker (spec §5 "History range 31 or 90 days"): presets 1 h / 24 h / 7 d / 30 d, at most
 * HISTORY_RANGE_MAX_DAYS — days that would make the range longer are greyed out, a range that passes the limit by
 * its times is shortened (and `onChange` says so), and the limit is said under the picker. Used by the history
 * chart, motor health and analytics.
 */
import { HISTORY_RANGE_MAX_DAYS } from '@tessera/contracts';
import { DatePicker, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { clampRange, isDayDisabled, RANGE_PRESETS, type TRange } from '../model/range';

/** Props: the range, its change handler (`clamped` when the chosen range was shortened), and the test id prefix. */
export interface THistoryRangePickerProps {
  value: TRange;
  onChange: (range: TRange, clamped: boolean) => void;
  testId: string;
}

/** The picker with its limit note. */
export function HistoryRangePicker({ value, onChange, testId }: THistoryRangePickerProps) {
  const { t } = useTranslation();
  const now = Date.now();
  return (
    <Space direction="vertical" size={2}>
      <DatePicker.RangePicker
        data-testid={testId}
        showTime
        allowClear={false}
        value={[dayjs(value[0]), dayjs(value[1])]}
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
          onChange(clamped, clamped[0] !== start);
        }}
      />
      <Typography.Text type="secondary" data-testid={`${testId}-limit`}>
        {t('devices.history.rangeLimit', { days: HISTORY_RANGE_MAX_DAYS })}
      </Typography.Text>
    </Space>
  );
}
