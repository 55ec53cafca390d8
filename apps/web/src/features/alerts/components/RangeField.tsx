/**
 * The period picker of the statistics and history pages: at most ALERT_RANGE_MAX_DAYS (spec §5) — days beyond are
 * greyed out, a range that passes it by hours is shortened (and said so), and the limit is stated under the picker.
 */
import { ALERT_RANGE_MAX_DAYS } from '@tessera/contracts';
import { DatePicker, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { clampAlertRange, isAlertDayDisabled, lastDays, type TAlertRange } from '../model/range';

const PRESETS = [
  { key: 'last7', days: 7 },
  { key: 'last30', days: 30 },
  { key: 'last90', days: ALERT_RANGE_MAX_DAYS },
] as const;

/** Props: the range and its change handler; `clamped` tells that the pick was shortened to the limit. */
export interface TRangeFieldProps {
  value: TAlertRange;
  onChange: (range: TAlertRange, clamped: boolean) => void;
}

/** A date-time range picker with the §5 limit. */
export function RangeField({ value, onChange }: TRangeFieldProps) {
  const { t } = useTranslation();
  const now = Date.now();
  return (
    <Space direction="vertical" size={2}>
      <DatePicker.RangePicker
        data-testid="alert-range"
        showTime
        allowClear={false}
        value={[dayjs(value[0]), dayjs(value[1])]}
        presets={PRESETS.map((p) => ({
          label: t(`alerts.range.${p.key}`),
          value: () => lastDays(Date.now(), p.days).map((ms) => dayjs(ms)) as [Dayjs, Dayjs],
        }))}
        disabledDate={(day, info) => isAlertDayDisabled(day.startOf('day').valueOf(), info?.from?.valueOf(), now)}
        onChange={(v) => {
          if (!v?.[0] || !v[1]) return;
          const from = v[0].valueOf();
          const clamped = clampAlertRange(from, v[1].valueOf());
          onChange(clamped, clamped[0] !== from);
        }}
      />
      <Typography.Text type="secondary" data-testid="alert-range-limit">
        {t('alerts.range.limit', { days: ALERT_RANGE_MAX_DAYS })}
      </Typography.Text>
    </Space>
  );
}
