/**
 * Controls of the history chart: key, range ({@link HistoryRangePicker}) and aggregation function — the last only
 * for a number key (a key of strings, booleans or JSON has no rollups: its raw values are listed).
 */
import type { TAggFn } from '@tessera/contracts';
import { Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TRange } from '../model/range';
import { HistoryRangePicker } from './HistoryRangePicker';

/** The functions offered on the chart (sum and count are API-only). */
export const CHART_FNS = ['avg', 'min', 'max'] as const satisfies readonly TAggFn[];

/** Props: current selections and their change handlers; `onClamped` tells that a chosen range was shortened. */
export interface THistoryControlsProps {
  keys: readonly { key: string; name: string }[];
  selectedKey: string | undefined;
  onKey: (key: string) => void;
  range: TRange;
  onRange: (range: TRange, clamped: boolean) => void;
  /** The aggregation; null: not offered (the chosen key's values are not numbers). */
  fn: TAggFn | null;
  onFn: (fn: TAggFn) => void;
}

/** Key select, range picker and fn select (when offered) in one row. */
export function HistoryControls(p: THistoryControlsProps) {
  const { t } = useTranslation();
  return (
    <Space wrap align="start">
      <Select
        data-testid="history-key"
        aria-label={t('devices.history.keyLabel')}
        value={p.selectedKey}
        onChange={p.onKey}
        options={p.keys.map((k) => ({ value: k.key, label: k.name }))}
        style={{ width: 200 }}
      />
      <HistoryRangePicker value={p.range} onChange={p.onRange} testId="history-range" />
      {p.fn !== null && (
        <Select<TAggFn>
          data-testid="history-fn"
          aria-label={t('devices.history.fnLabel')}
          value={p.fn}
          onChange={p.onFn}
          options={CHART_FNS.map((fn) => ({ value: fn, label: t(`devices.history.fn.${fn}`) }))}
          style={{ width: 120 }}
        />
      )}
    </Space>
  );
}
