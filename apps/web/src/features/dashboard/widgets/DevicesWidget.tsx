/**
 * Device-table widget: the chosen devices with online state, last seen and one key's newest value; the twins are
 * read once and kept current from the live channel, the online state every minute. Devices the viewer may no longer
 * see are named as such.
 */
import { useQuery } from '@tanstack/react-query';
import { paths, type TDevice, type TDeviceTwin, type TPage, type TWidgetParameter } from '@tessera/contracts';
import { Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { http } from '../../../lib/http';
import { dashboardKeys } from '../api';
import { useLiveDevice } from '../../../lib/live';
import { useDeviceDetail } from '../../devices/api';
import { OnlineBadge } from '../../devices/components/OnlineBadge';
import { formatLocalTime, formatValues } from '../../devices/model/format';

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
  const rows = p.tangram_ids.map((id) => ({ id, device: seen.get(id) }));
  const latestOf = (id: string) => {
    if (!p.key) return null;
    return live[id] ?? twins.data?.find((tw) => tw.tangramId === id)?.telemetry.find((v) => v.key === p.key) ?? null;
  };
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
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        loading={list.isLoading}
        dataSource={rows}
        data-testid="widget-devices"
        columns={[
          {
            title: t('dashboard.device'),
            render: (_, r) =>
              r.device ? (
                <Link to={`/device/detail/${r.id}/telemetry-status`}>{r.device.name}</Link>
              ) : (
                <Typography.Text type="warning">{t('dashboard.deviceGone', { id: r.id.slice(-12) })}</Typography.Text>
              ),
          },
          { title: t('dashboard.online'), render: (_, r) => (r.device ? <OnlineBadge online={r.device.online} /> : null) },
          { title: t('dashboard.lastSeen'), render: (_, r) => formatLocalTime(r.device?.last_seen_at) },
          ...(p.key
            ? [
                {
                  title: t('dashboard.latestOf', { name: sensorName }),
                  render: (_: unknown, r: { id: string }) => {
                    const v = latestOf(r.id);
                    return <span data-testid={`widget-devices-value-${r.id}`}>{v ? formatValues(v.vs, i18n.language) : '—'}</span>;
                  },
                },
              ]
            : []),
        ]}
      />
    </>
  );
}
