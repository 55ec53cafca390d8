/**
 * history-chart tab (spec §2, §5 history range): one key's bucketed history over a chosen range. Zooming the
 * chart (inside or slider dataZoom) re-queries the zoomed range, debounced, with the same width, so the buckets
 * get finer; "reset zoom" goes back to the picked range. Shows the bucket size (s) and the source table. "Export"
 * (with the download section and the device's download_data permission) makes a download-centre job of the shown
 * key and range. A key whose values are not numbers has no rollups: its points are listed instead (ValueHistory), and
 * no aggregation is offered.
 */
import { DEFAULT_CHART_WIDTH, hasFeature, type TAggFn, type TTimeseriesQuery } from '@tessera/contracts';
import { Alert, Button, Empty, message, Space, Spin, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/useSession';
import { ExportJobButton } from '../../downloads/components/ExportJobButton';
import { useTimeseries } from '../api';
import { EChart } from '../components/EChart';
import { HistoryControls } from '../components/HistoryControls';
import { ValueHistory } from '../components/ValueHistory';
import { useDeviceOutlet } from '../context';
import { formatSeconds } from '../model/format';
import { toLineOption } from '../model/lineOption';
import { defaultRange, type TRange, zoomedRange } from '../model/range';
import { countDrawn, toLines } from '../model/series';

const ZOOM_DEBOUNCE_MS = 400;

/** The history-chart page. */
export default function HistoryChartPage() {
  const { t, i18n } = useTranslation();
  const { device } = useDeviceOutlet();
  const sensors = device.sensors;
  const [key, setKey] = useState(sensors[0]?.key);
  const [fn, setFn] = useState<TAggFn>('avg');
  const [range, setRange] = useState<TRange>(() => defaultRange(Date.now()));
  const [view, setView] = useState<TRange | null>(null);
  const session = useSession();
  const mayExport = hasFeature(session.fea, '8:1') && device.permissions.includes('download_data');
  const zoomTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(zoomTimer.current), []);

  const shown = view ?? range;
  const sensor = sensors.find((s) => s.key === key);
  const numeric = (sensor?.value_type ?? 'number') === 'number';
  const query: TTimeseriesQuery | null =
    key && numeric
      ? { tangramId: device.tangram_id, key, startTs: shown[0], endTs: shown[1], fn, diff: false, width: DEFAULT_CHART_WIDTH }
      : null;
  const series = useTimeseries(query);

  const chart = useMemo(() => {
    const points = series.data?.points ?? [];
    const count = sensor?.value_count ?? Math.max(1, ...points.map((p) => p.vs.length));
    const lines = toLines(points, count);
    const names = lines.map((_, i) => (lines.length > 1 ? `${sensor?.name ?? key} v${i + 1}` : (sensor?.name ?? key ?? '')));
    const option = toLineOption({
      lines,
      names,
      xMin: shown[0],
      xMax: shown[1],
      zoom: true,
      unit: sensor?.unit ?? '',
      locale: i18n.language,
    });
    return { option, drawn: countDrawn(lines), empty: points.length === 0 };
  }, [series.data, sensor, key, shown, i18n.language]);

  const onZoom = (startPct: number, endPct: number) => {
    clearTimeout(zoomTimer.current);
    zoomTimer.current = setTimeout(() => {
      const next = zoomedRange(shown, startPct, endPct);
      if (next) setView(next);
    }, ZOOM_DEBOUNCE_MS);
  };

  if (sensors.length === 0) return <Empty data-testid="history-no-keys" description={t('devices.history.noKeys')} />;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <HistoryControls
        keys={sensors}
        selectedKey={key}
        onKey={setKey}
        range={range}
        onRange={(next, clamped) => {
          if (clamped) void message.warning(t('devices.history.clamped'));
          setRange(next);
          setView(null);
        }}
        fn={numeric ? fn : null}
        onFn={setFn}
      />
      {sensor && !numeric && <ValueHistory tangramId={device.tangram_id} sensor={sensor} range={range} />}
      {numeric && (
        <Space wrap>
          <Typography.Text type="secondary" data-testid="history-bucket">
            {series.data ? t('devices.history.bucket', { seconds: formatSeconds(series.data.bucket_ms, i18n.language) }) : ''}
          </Typography.Text>
          <Typography.Text type="secondary" data-testid="history-source">
            {series.data ? t('devices.history.source', { source: t(`devices.history.sources.${series.data.source}`) }) : ''}
          </Typography.Text>
          {view && (
            <Button size="small" data-testid="history-reset-zoom" onClick={() => setView(null)}>
              {t('devices.history.resetZoom')}
            </Button>
          )}
          {mayExport && (
            <ExportJobButton
              size="small"
              preset={{ tangramIds: [device.tangram_id], keys: key ? [key] : [], range: shown }}
              label={t('downloads.exportHistory')}
              testId="history-export"
            />
          )}
          {series.isFetching && <Spin size="small" />}
        </Space>
      )}
      {series.isError && <Alert type="error" showIcon message={t('devices.loadFailed')} />}
      {series.isSuccess && chart.empty && <Empty data-testid="history-empty" description={t('devices.history.empty')} />}
      {numeric && (
        <div style={{ display: series.isSuccess && chart.empty ? 'none' : undefined }}>
          <EChart testId="history-chart" option={chart.option} points={chart.drawn} onZoom={onZoom} />
        </div>
      )}
    </Space>
  );
}
