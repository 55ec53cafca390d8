/**
 * Device-table widget: the chosen devices with online state, last seen and one key's newest value; the twins are
 * read once and kept current from the live channel, the online state every minute. Devices the viewer may no longer
 * see are named as such. A few rows with no paging, sorting or filters: a plain `<table>` drawn with antd's theme
 * tokens (antd's Table, with the select, pagination, dropdown and tree it imports, was about 90 KB br of a dashboard).
 */
import { useQuery } from '@tanstack/react-query';
import { paths, type TDevice, type TDeviceTwin, type TPage, type TWidgetParameter } from '@tessera/contracts';
import { Spin, theme } from 'antd';
import { type CSSProperties, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { http } from '../../../lib/http';
import { dashboardKeys } from '../api';
import { useLiveDevice } from '../../../lib/live';
import { useDeviceDetail } from '../../devices/api';
import { OnlineBadge } from '../../devices/components/OnlineBadge';
import { formatLocalTime, formatValues } from '../../devices/model/format';
import { Text } from '../../../components/Text';

/** One row of the table: a chosen device, `device` absent when the viewer may no longer see it. */
interface TRow {
  id: string;
  device: TDevice | undefined;
}

/** Keeps the newest live value of `key` per device. */
function LiveValue({
  tangramId,
  keyName,
  onValue,
}: {
  tangramId: string;
  keyName: string;
  onValue: (ts: number, vs: (number | null)[]) => void;
}) {
  useLiveDevice(tangramId, (m) => {
    for (const point of m.list) if (point.key === keyName) onValue(point.ts, point.vs);
  });
  return null;
}

/** The widget body. */
export function DevicesWidget({ p }: { p: TWidgetParameter<'devices'> }) {
  const { t, i18n } = useTranslation();
  const list = useQuery({
    queryKey: dashboardKeys.devices(p.tangram_ids),
    queryFn: async () => {
      const found = await Promise.all(
        p.tangram_ids.map((id) => http.get<TPage<TDevice>>(paths.devices, { page: 1, limit: 1, q: id }, { quiet: true })),
      );
      return found.flatMap((page) => page.data.filter((d) => p.tangram_ids.includes(d.tangram_id)));
    },
    refetchInterval: 60_000,
  });
  const twins = useQuery({
    queryKey: dashboardKeys.twins(p.tangram_ids),
    queryFn: () => http.get<TDeviceTwin[]>(paths.tsDeviceTwins, { tangramIds: p.tangram_ids.join(',') }, { quiet: true }),
  });
  // The value column is named by the key's sensor name (as the first device's project calls it), not the raw key.
  const first = useDeviceDetail(p.tangram_ids[0] ?? '');
  const sensorName = first.data?.sensors.find((s) => s.key === p.key)?.name || p.key;
  const [live, setLive] = useState<Record<string, { ts: number; vs: (number | null)[] }>>({});
  const seen = new Map((list.data ?? []).map((d) => [d.tangram_id, d]));
  const rows: TRow[] = p.tangram_ids.map((id) => ({ id, device: seen.get(id) }));
  const latestOf = (id: string) => {
    if (!p.key) return null;
    return live[id] ?? twins.data?.find((tw) => tw.tangramId === id)?.telemetry.find((v) => v.key === p.key) ?? null;
  };
  const { token } = theme.useToken();
  const padding = `${token.paddingXS}px`;
  const rule = `${token.lineWidth}px ${token.lineType} ${token.colorSplit}`;
  // antd's small table: 8 px padding, a tinted heading row, a hairline under each row.
  const cellStyle: CSSProperties = { padding, borderBottom: rule, textAlign: 'start', verticalAlign: 'middle' };
  const headStyle: CSSProperties = {
    ...cellStyle,
    background: token.colorFillAlter,
    color: token.colorTextHeading,
    fontWeight: token.fontWeightStrong,
  };
  const columns: { key: string; title: string; render: (r: TRow) => ReactNode }[] = [
    {
      key: 'device',
      title: t('dashboard.device'),
      render: (r) =>
        r.device ? (
          <Link to={`/device/detail/${r.id}/telemetry-status`}>{r.device.name}</Link>
        ) : (
          <Text type="warning">{t('dashboard.deviceGone', { id: r.id.slice(-12) })}</Text>
        ),
    },
    { key: 'online', title: t('dashboard.online'), render: (r) => (r.device ? <OnlineBadge online={r.device.online} /> : null) },
    { key: 'lastSeen', title: t('dashboard.lastSeen'), render: (r) => formatLocalTime(r.device?.last_seen_at) },
    ...(p.key
      ? [
          {
            key: 'value',
            title: t('dashboard.latestOf', { name: sensorName }),
            render: (r: TRow) => {
              const v = latestOf(r.id);
              return <span data-testid={`widget-devices-value-${r.id}`}>{v ? formatValues(v.vs, i18n.language) : '—'}</span>;
            },
          },
        ]
      : []),
  ];
  return (
    <>
      {p.key &&
        rows
          .filter((r) => r.device)
          .map((r) => (
            <LiveValue
              key={r.id}
              tangramId={r.id}
              keyName={p.key ?? ''}
              onValue={(ts, vs) => setLive((m) => ({ ...m, [r.id]: { ts, vs } }))}
            />
          ))}
      <div data-testid="widget-devices" style={{ overflowX: 'auto' }} aria-busy={list.isLoading}>
        <table style={{ width: '100%', minWidth: 'max-content', borderCollapse: 'separate', borderSpacing: 0 }}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.key} scope="col" style={headStyle}>
                  {c.title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {list.isLoading ? (
              <tr>
                <td colSpan={columns.length} style={{ ...cellStyle, textAlign: 'center' }}>
                  <Spin size="small" />
                </td>
              </tr>
            ) : (
              rows.map((r) => (
                <tr key={r.id}>
                  {columns.map((c) => (
                    <td key={c.key} style={cellStyle}>
                      {c.render(r)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
