/**
 * The analytics page (spec §2 `analytics` "device comparison", §5 "at least one device, at most 5";
 * docs/analytics.md): 1–5 devices the viewer may see × up to MAX_ANALYTICS_KEYS keys over a range of at most
 * HISTORY_RANGE_MAX_DAYS, bucketed by the chosen function. The series are overlaid, one chart per unit; a statistics
 * table summarises each series; the charts export as PNG, their data as CSV, and the raw points as a download-centre
 * job. Vendors also see the activation rate of their devices over the range.
 */
import { FileTextOutlined } from '@ant-design/icons';
import { hasFeature, MAX_ANALYTICS_DEVICES, MAX_ANALYTICS_KEYS, type TAggFn } from '@tessera/contracts';
import { Alert, Button, Card, Empty, Form, message, Select, Space, Spin } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fileStamp, saveText } from '../../../lib/saveFile';
import { useSession } from '../../../lib/useSession';
import { useDeviceKeys } from '../../devices/api';
import { DevicePicker } from '../../devices/components/DevicePicker';
import { CHART_FNS } from '../../devices/components/HistoryControls';
import { HistoryRangePicker } from '../../devices/components/HistoryRangePicker';
import { defaultRange, type TRange } from '../../devices/model/range';
import { ExportJobButton } from '../../downloads/components/ExportJobButton';
import { useComparedSeries, usePlatformStatistics, useStatisticsSummary } from '../api';
import { ActivationCard } from '../components/ActivationCard';
import { ComparisonCharts } from '../components/ComparisonCharts';
import { StatisticsTable, type TSeriesFigures } from '../components/StatisticsTable';
import { comparedSeries, comparisonCsv, platformTelemetrySeries } from '../model/compare';
import { usePlatformTelemetryList } from '../../platform-telemetry/api';

/** The page. */
export default function AnalyticsPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [tangramIds, setTangramIds] = useState<string[]>([]);
  const [labels, setLabels] = useState<ReadonlyMap<string, string>>(new Map());
  const [keys, setKeys] = useState<string[]>([]);
  const [keysTouched, setKeysTouched] = useState(false);
  const [range, setRange] = useState<TRange>(() => defaultRange(Date.now()));
  const [fn, setFn] = useState<TAggFn>('avg');
  const keyOptions = useDeviceKeys(tangramIds);

  // Until the viewer picks keys, the first key the chosen devices report is compared.
  useEffect(() => {
    if (!keysTouched && keys.length === 0 && keyOptions.keys.length > 0) setKeys([keyOptions.keys[0].key]);
  }, [keysTouched, keys.length, keyOptions.keys]);

  const isVendor = session.level !== 'user';
  // Vendors compare their platform telemetries too (users have none).
  const [ptIds, setPtIds] = useState<number[]>([]);
  const platform = usePlatformTelemetryList({ page: 1, limit: 100 }, isVendor);
  const series = useMemo(() => {
    const chosen = (platform.data?.data ?? []).filter((pt) => ptIds.includes(pt.id));
    return [...(keys.length ? comparedSeries(tangramIds, keys, keyOptions.keys, labels) : []), ...platformTelemetrySeries(chosen)];
  }, [tangramIds, keys, keyOptions.keys, labels, ptIds, platform.data]);
  const loaded = useComparedSeries(series, fn, range);
  const summary = useStatisticsSummary(tangramIds, keys, range);
  const ptStats = usePlatformStatistics(ptIds, range);
  const stats = useMemo(
    () =>
      new Map<string, TSeriesFigures>([...(summary.data?.data ?? []).map((s) => [`${s.tangramId}/${s.key}`, s] as const), ...ptStats.byId]),
    [summary.data, ptStats.byId],
  );
  const mayExport = hasFeature(session.fea, '8:1');

  const saveCsv = () => saveText(`analytics-${fileStamp(new Date())}.csv`, comparisonCsv(series, loaded.answers));

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="analytics-page">
      <Card size="small" title={t('analytics.title')}>
        <Form layout="vertical">
          <Space wrap align="start" size="large">
            <Form.Item label={t('analytics.devices')} extra={t('analytics.devicesLimit', { max: MAX_ANALYTICS_DEVICES })}>
              <div style={{ width: 360 }}>
                <DevicePicker
                  ariaLabel={t('analytics.devices')}
                  value={tangramIds}
                  onChange={setTangramIds}
                  max={MAX_ANALYTICS_DEVICES}
                  testId="analytics-devices"
                  onLabels={setLabels}
                />
              </div>
            </Form.Item>
            <Form.Item label={t('analytics.keys')} extra={t('analytics.keysLimit', { max: MAX_ANALYTICS_KEYS })}>
              <Select<string[]>
                mode="multiple"
                style={{ width: 280 }}
                value={keys}
                onChange={(next) => {
                  setKeysTouched(true);
                  setKeys(next.slice(0, MAX_ANALYTICS_KEYS));
                }}
                loading={keyOptions.loading}
                options={keyOptions.keys.map((k) => ({
                  value: k.key,
                  label: k.unit ? `${k.name} (${k.unit})` : k.name,
                  disabled: keys.length >= MAX_ANALYTICS_KEYS && !keys.includes(k.key),
                }))}
                placeholder={t('analytics.keysPlaceholder')}
                aria-label={t('analytics.keys')}
                notFoundContent={tangramIds.length === 0 ? t('analytics.devicesFirst') : undefined}
                data-testid="analytics-keys"
              />
            </Form.Item>
            {isVendor && (
              <Form.Item label={t('analytics.platformTelemetry')} extra={t('analytics.platformLimit', { max: MAX_ANALYTICS_DEVICES })}>
                <Select<number[]>
                  mode="multiple"
                  style={{ width: 240 }}
                  value={ptIds}
                  onChange={(next) => setPtIds(next.slice(0, MAX_ANALYTICS_DEVICES))}
                  loading={platform.isLoading}
                  optionFilterProp="label"
                  options={(platform.data?.data ?? []).map((pt) => ({
                    value: pt.id,
                    label: pt.unit ? `${pt.name} (${pt.unit})` : pt.name,
                    disabled: ptIds.length >= MAX_ANALYTICS_DEVICES && !ptIds.includes(pt.id),
                  }))}
                  notFoundContent={t('analytics.platformNone')}
                  placeholder={t('analytics.platformPlaceholder')}
                  aria-label={t('analytics.platformTelemetry')}
                  data-testid="analytics-platform"
                />
              </Form.Item>
            )}
            <Form.Item label={t('analytics.range')}>
              <HistoryRangePicker
                value={range}
                testId="analytics-range"
                onChange={(next, clamped) => {
                  if (clamped) void message.warning(t('devices.history.clamped'));
                  setRange(next);
                }}
              />
            </Form.Item>
            <Form.Item label={t('analytics.fn')}>
              <Select<TAggFn>
                value={fn}
                onChange={setFn}
                style={{ width: 120 }}
                options={CHART_FNS.map((f) => ({ value: f, label: t(`devices.history.fn.${f}`) }))}
                aria-label={t('analytics.fn')}
                data-testid="analytics-fn"
              />
            </Form.Item>
          </Space>
        </Form>
        <Space wrap>
          <Button
            icon={<FileTextOutlined />}
            disabled={series.length === 0 || loaded.loading}
            onClick={saveCsv}
            data-testid="analytics-csv"
          >
            {t('analytics.csv')}
          </Button>
          {mayExport && (
            <ExportJobButton
              preset={{ tangramIds, keys, range }}
              disabled={tangramIds.length === 0}
              label={t('analytics.exportJob')}
              testId="analytics-export"
            />
          )}
          {loaded.loading && <Spin size="small" />}
        </Space>
      </Card>

      {tangramIds.length === 0 && ptIds.length === 0 ? (
        <Card size="small">
          <Empty description={t('analytics.empty', { max: MAX_ANALYTICS_DEVICES })} data-testid="analytics-empty" />
        </Card>
      ) : series.length === 0 ? (
        <Card size="small">
          <Empty description={t('analytics.noKeys')} data-testid="analytics-no-keys" />
        </Card>
      ) : (
        <>
          {loaded.failed && <Alert type="error" showIcon message={t('devices.loadFailed')} />}
          <ComparisonCharts series={series} answers={loaded.answers} range={range} />
          <Card size="small" title={t('analytics.stats.title')}>
            {summary.isError && <Alert type="error" showIcon message={t('devices.loadFailed')} />}
            <StatisticsTable series={series} stats={stats} loading={summary.isFetching || ptStats.loading} />
          </Card>
        </>
      )}

      {isVendor && <ActivationCard range={range} />}
    </Space>
  );
}
