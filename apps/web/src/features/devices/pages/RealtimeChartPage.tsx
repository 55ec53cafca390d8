/**
 * realtime-chart tab: the last N minutes of one key, started from the v2 history of that window and extended
 * by every live message; the time axis slides with the clock.
 */
import { MAX_CHART_WIDTH, type TTimeseriesQuery } from '@tessera/contracts';
import { Empty, Select, Space, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLiveDevice } from '../../../lib/live';
import { useTimeseries } from '../api';
import { EChart } from '../components/EChart';
import { LiveState } from '../components/LiveState';
import { useDeviceOutlet } from '../context';
import { toLineOption } from '../model/lineOption';
import { appendLive, countDrawn, joinRealtime, type TLiveBuffer, toLines } from '../model/series';

/** Window lengths offered, in minutes; the first is the default. */
export const REALTIME_WINDOWS_MIN = [5, 15, 30] as const;
const TICK_MS = 2_000;

/** The realtime-chart page. */
export default function RealtimeChartPage() {
  const { t, i18n } = useTranslation();
  const { device } = useDeviceOutlet();
  const sensors = device.sensors;
  const [key, setKey] = useState(sensors[0]?.key);
  const [minutes, setMinutes] = useState<number>(REALTIME_WINDOWS_MIN[0]);
  const windowMs = minutes * 60_000;
  const [now, setNow] = useState(() => Date.now());
  const [buffer, setBuffer] = useState<TLiveBuffer>({});
  // The history window is fixed when the key or window changes; live points cover the time after it.
  const since = useMemo(() => ({ at: Date.now(), key, minutes }), [key, minutes]);

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  useLiveDevice(device.tangram_id, (msg) => setBuffer((b) => appendLive(b, msg, windowMs, Date.now())));

  const query: TTimeseriesQuery | null = key
    ? {
        tangramId: device.tangram_id,
        key,
        startTs: since.at - since.minutes * 60_000,
        endTs: since.at,
        fn: 'avg',
        diff: false,
        width: Math.min(MAX_CHART_WIDTH, since.minutes * 60),
      }
    : null;
  const history = useTimeseries(query);
  const sensor = sensors.find((s) => s.key === key);
  const points = joinRealtime(history.data?.points ?? [], (key && buffer[key]) || [], now - windowMs);
  const lines = toLines(points, sensor?.value_count ?? 1);
  const names = lines.map((_, i) => (lines.length > 1 ? `${sensor?.name ?? key} v${i + 1}` : (sensor?.name ?? '')));
  // Device clocks and points arriving between ticks can be ahead of `now`: never clip the newest point.
  const xMax = Math.max(now, points[points.length - 1]?.ts ?? now);
  const option = toLineOption({ lines, names, xMin: xMax - windowMs, xMax, zoom: false, unit: sensor?.unit ?? '', locale: i18n.language });

  if (sensors.length === 0) return <Empty description={t('devices.history.noKeys')} />;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap>
        <Select
          data-testid="realtime-key"
          aria-label={t('devices.history.keyLabel')}
          value={key}
          onChange={setKey}
          options={sensors.map((s) => ({ value: s.key, label: s.name }))}
          style={{ width: 200 }}
        />
        <Select<number>
          data-testid="realtime-window"
          aria-label={t('devices.realtime.windowLabel')}
          value={minutes}
          onChange={setMinutes}
          options={REALTIME_WINDOWS_MIN.map((m) => ({ value: m, label: t('devices.realtime.lastMinutes', { minutes: m }) }))}
          style={{ width: 160 }}
        />
        <LiveState />
        <Typography.Text type="secondary" data-testid="realtime-count">
          {t('devices.realtime.points', { n: points.length })}
        </Typography.Text>
      </Space>
      <EChart testId="realtime-chart" option={option} points={countDrawn(lines)} />
    </Space>
  );
}
